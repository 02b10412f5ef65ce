import type { AttrPath } from '../filter/ast.js';
import type { AttributeDefinition } from './attribute-definition.js';
import { bareExtension } from './bare-extension.js';
import type { ResourceModel } from './resource-model.js';
import { topLevelAttributes } from './top-level-attributes.js';
import { cloneJson } from '../json/clone-json.js';
import { withEntry } from '../json/with-entry.js';
import { memoOf, memoSlot, type ModelMemo } from './model-memo.js';

/** RFC 7644 §3.4.2.5 / §3.9: the `attributes` or `excludedAttributes` query parameters, parsed. */
export interface AttributeSelection {
  readonly attributes?: readonly AttrPath[];
  readonly excludedAttributes?: readonly AttrPath[];
  /**
   * `returned: "request"` attributes and sub-attributes the client sent in the POST, PUT or PATCH
   * this answers: returned like `default` ones (RFC 7643 §7, "if the attribute was specified by the client").
   */
  readonly sent?: ReadonlySet<AttributeDefinition>;
}

/** A whole attribute (`true`) or some of its sub-attributes. */
type Picked = Map<AttributeDefinition, true | Set<AttributeDefinition>>;

/**
 * The representation of a resource a response carries (RFC 7643 §2.2 `returned`, RFC 7644 §3.9):
 * `always` attributes always; `never` ones (password) never; `default` ones unless excluded or unless
 * `attributes` is given without them; `request` ones only when `attributes` names them or the client
 * sent them (`selection.sent`). Sub-attributes
 * (`name.givenName`, `emails.value`) and URN-qualified names select parts; a bare extension URN selects
 * the whole extension; unknown names are ignored. Output is in schema spelling and order: `schemas`
 * (core URN first, then the extensions that have data), id, externalId, core attributes, extensions, meta.
 * `location`, when given, is served as `meta.location` (whatever `resource` holds there).
 * Never mutates `resource`; the result shares no objects with it.
 */
export function projectResource(
  model: ResourceModel,
  resource: Readonly<Record<string, unknown>>,
  selection: AttributeSelection = {},
  location?: string,
): Record<string, unknown> {
  const requested = selection.attributes !== undefined && selection.attributes.length > 0 ? pick(model, selection.attributes) : undefined;
  const excluded = requested === undefined && selection.excludedAttributes !== undefined ? pick(model, selection.excludedAttributes) : undefined;
  const sent = selection.sent !== undefined && selection.sent.size > 0 ? selection.sent : undefined;
  const memo = memoOf(model);

  const body: Record<string, unknown> = {};
  const extensions: [string, Record<string, unknown>][] = [];
  let meta: unknown;
  const top = topLevelAttributes(model);
  const values = readAll(resource, topLevelNames(model));
  if (location !== undefined) {
    // `meta.location` (RFC 7643 §3.1), added to a copy of `meta` alone rather than to a copy of the resource.
    const at = metaIndex(top);
    const meta = values[at];
    if (at >= 0) values[at] = isObject(meta) ? withEntry(meta, 'location', location) : { location };
  }
  for (let i = 0; i < top.length; i++) {
    const attribute = top[i] as AttributeDefinition;
    const value = project(memo, attribute, values[i], requested, excluded, sent);
    if (value === undefined) continue;
    if (attribute.name === 'meta') meta = value;
    else body[attribute.name] = value;
  }
  model.extensions.forEach(({ schema }, index) => {
    const container = values[top.length + 1 + index];
    if (!isObject(container)) return;
    const inner = readAll(container, schema.attributes);
    const out: Record<string, unknown> = {};
    schema.attributes.forEach((attribute, at) => {
      const value = project(memo, attribute, inner[at], requested, excluded, sent);
      if (value !== undefined) out[attribute.name] = value;
    });
    if (Object.keys(out).length > 0) extensions.push([schema.id, out]);
  });

  const out: Record<string, unknown> = { schemas: [model.core.id, ...extensions.map(([id]) => id)] };
  Object.assign(out, body);
  for (const [id, value] of extensions) out[id] = value;
  if (meta !== undefined) out['meta'] = meta;
  return out;
}

/** Where `meta` is among the top-level attributes (they always end with it, RFC 7643 §3.1). */
function metaIndex(top: readonly AttributeDefinition[]): number {
  for (let i = top.length - 1; i >= 0; i--) if ((top[i] as AttributeDefinition).name === 'meta') return i;
  return -1;
}

/**
 * Every key a resource of `model` may have at the top, in the order `projectResource` reads them:
 * the top-level attributes, `schemas`, then each extension's URN. Derived once per model.
 */
function topLevelNames(model: ResourceModel): readonly { readonly name: string }[] {
  return memoOf(model).get(TOP_LEVEL_NAMES, model);
}

/** Derived once per model, kept in its memo. */
const TOP_LEVEL_NAMES = memoSlot('topLevelNames', (model: ResourceModel): readonly { readonly name: string }[] =>
  Object.freeze([...topLevelAttributes(model), { name: 'schemas' }, ...model.extensions.map(({ schema }) => ({ name: schema.id }))]),
);

/** Collect the attributes and sub-attributes a list of paths names. */
function pick(model: ResourceModel, paths: readonly AttrPath[]): Picked {
  const picked: Picked = new Map();
  for (const path of paths) {
    const extension = bareExtension(model, path);
    if (extension !== undefined) {
      for (const attribute of extension.attributes) picked.set(attribute, true);
      continue;
    }
    const resolved = model.resolve(path);
    if (resolved === undefined) continue; // RFC 7644 §3.4.2.5: unknown names are ignored
    const current = picked.get(resolved.attribute);
    if (resolved.subAttribute === undefined) picked.set(resolved.attribute, true);
    else if (current === undefined) picked.set(resolved.attribute, new Set([resolved.subAttribute]));
    else if (current !== true) current.add(resolved.subAttribute);
  }
  return picked;
}

/** Project one attribute's value; undefined when it is not returned or has nothing left. */
function project(
  memo: ModelMemo,
  attribute: AttributeDefinition,
  value: unknown,
  requested: Picked | undefined,
  excluded: Picked | undefined,
  sent: ReadonlySet<AttributeDefinition> | undefined,
): unknown {
  if (value === undefined || value === null || attribute.returned === 'never') return undefined;
  const chosen = requested?.get(attribute);
  const dropped = excluded?.get(attribute);
  if (attribute.returned !== 'always') {
    if (requested !== undefined ? chosen === undefined : (attribute.returned === 'request' && sent?.has(attribute) !== true) || dropped === true) return undefined;
  }
  if (attribute.type !== 'complex' || attribute.subAttributes === undefined) return cloneJson(value);
  const shown = shownSubAttributes(memo, attribute.subAttributes, chosen, dropped, sent);
  if (!Array.isArray(value)) return projectElement(value, shown);
  const items: unknown[] = [];
  for (const item of value) {
    const projected = projectElement(item, shown);
    if (projected !== undefined) items.push(projected);
  }
  return items.length > 0 ? items : undefined;
}

/** The sub-attributes a response shows, in schema order. */
function shownSubAttributes(
  memo: ModelMemo,
  subs: readonly AttributeDefinition[],
  chosen: true | Set<AttributeDefinition> | undefined,
  dropped: true | Set<AttributeDefinition> | undefined,
  sent: ReadonlySet<AttributeDefinition> | undefined,
): readonly AttributeDefinition[] {
  if (chosen === undefined && dropped === undefined && sent === undefined) return defaultSubAttributes(memo, subs);
  return subs.filter((sub) => {
    if (sub.returned === 'never') return false;
    if (sub.returned === 'always') return true;
    if (chosen instanceof Set) return chosen.has(sub);
    if (chosen === true) return true;
    if (sub.returned === 'request') return sent?.has(sub) === true;
    return !(dropped instanceof Set && dropped.has(sub));
  });
}

/** The sub-attributes shown when the request selects nothing: every `always` and `default` one. Derived once per list. */
function defaultSubAttributes(memo: ModelMemo, subs: readonly AttributeDefinition[]): readonly AttributeDefinition[] {
  return memo.of(DEFAULT_SUBS, subs);
}

/** Derived once per list of sub-attributes, kept in the model's memo. */
const DEFAULT_SUBS = memoSlot('defaultSubAttributes', (subs: readonly AttributeDefinition[]): readonly AttributeDefinition[] =>
  Object.freeze(subs.filter((sub) => sub.returned === 'always' || sub.returned === 'default')),
);

function projectElement(item: unknown, shown: readonly AttributeDefinition[]): unknown {
  if (!isObject(item)) return cloneJson(item);
  const values = readAll(item, shown);
  const out: Record<string, unknown> = {};
  let any = false;
  for (let i = 0; i < shown.length; i++) {
    const v = values[i];
    if (v === undefined || v === null) continue;
    out[(shown[i] as AttributeDefinition).name] = cloneJson(v);
    any = true;
  }
  return any ? out : undefined;
}

/**
 * The values of `names` in `object`, matched case-insensitively (RFC 7643 §2.1). Keys spelled as the
 * schema spells them (what the core writes) are found directly; only an object with some other
 * spelling pays for a lower-cased index of its keys.
 */
function readAll(object: Readonly<Record<string, unknown>>, names: readonly { readonly name: string }[]): unknown[] {
  const values = new Array<unknown>(names.length);
  let found = 0;
  for (let i = 0; i < names.length; i++) {
    const name = (names[i] as { readonly name: string }).name;
    if (Object.prototype.hasOwnProperty.call(object, name)) {
      values[i] = object[name];
      found++;
    }
  }
  let keys = 0;
  for (const key in object) if (Object.prototype.hasOwnProperty.call(object, key)) keys++;
  if (found === keys) return values;
  const lower = keysByLowercase(object);
  for (let i = 0; i < names.length; i++) {
    if (values[i] !== undefined) continue;
    const key = lower.get((names[i] as { readonly name: string }).name.toLowerCase());
    if (key !== undefined) values[i] = object[key];
  }
  return values;
}

function keysByLowercase(object: Readonly<Record<string, unknown>>): Map<string, string> {
  const keys = new Map<string, string>();
  for (const key of Object.keys(object)) {
    const lower = key.toLowerCase();
    if (!keys.has(lower)) keys.set(lower, key);
  }
  return keys;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

