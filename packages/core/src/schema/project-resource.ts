import type { AttrPath } from '../filter/ast.js';
import type { AttributeDefinition } from './attribute-definition.js';
import { bareExtension } from './bare-extension.js';
import type { ResourceModel } from './resource-model.js';
import { topLevelAttributes } from './top-level-attributes.js';

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
 * Never mutates `resource`; the result shares no objects with it.
 */
export function projectResource(model: ResourceModel, resource: Readonly<Record<string, unknown>>, selection: AttributeSelection = {}): Record<string, unknown> {
  const requested = selection.attributes !== undefined && selection.attributes.length > 0 ? pick(model, selection.attributes) : undefined;
  const excluded = requested === undefined && selection.excludedAttributes !== undefined ? pick(model, selection.excludedAttributes) : undefined;

  const body: Record<string, unknown> = {};
  const extensions: [string, Record<string, unknown>][] = [];
  let meta: unknown;
  const source = keysByLowercase(resource);
  for (const attribute of topLevelAttributes(model)) {
    const value = project(attribute, read(resource, source, attribute.name), requested, excluded, selection.sent);
    if (value === undefined) continue;
    if (attribute.name === 'meta') meta = value;
    else body[attribute.name] = value;
  }
  for (const { schema } of model.extensions) {
    const container = read(resource, source, schema.id);
    if (!isObject(container)) continue;
    const inner = keysByLowercase(container);
    const out: Record<string, unknown> = {};
    for (const attribute of schema.attributes) {
      const value = project(attribute, read(container, inner, attribute.name), requested, excluded, selection.sent);
      if (value !== undefined) out[attribute.name] = value;
    }
    if (Object.keys(out).length > 0) extensions.push([schema.id, out]);
  }

  const out: Record<string, unknown> = { schemas: [model.core.id, ...extensions.map(([id]) => id)] };
  Object.assign(out, body);
  for (const [id, value] of extensions) out[id] = value;
  if (meta !== undefined) out['meta'] = meta;
  return out;
}

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
  if (attribute.type !== 'complex' || attribute.subAttributes === undefined) return copy(value);
  const subs = attribute.subAttributes;
  const keep = (sub: AttributeDefinition): boolean => {
    if (sub.returned === 'never') return false;
    if (sub.returned === 'always') return true;
    if (chosen instanceof Set) return chosen.has(sub);
    if (chosen === true) return true;
    if (sub.returned === 'request') return sent?.has(sub) === true;
    return !(dropped instanceof Set && dropped.has(sub));
  };
  const one = (item: unknown): unknown => {
    if (!isObject(item)) return copy(item);
    const keys = keysByLowercase(item);
    const out: Record<string, unknown> = {};
    for (const sub of subs) {
      if (!keep(sub)) continue;
      const v = read(item, keys, sub.name);
      if (v !== undefined && v !== null) out[sub.name] = copy(v);
    }
    return Object.keys(out).length > 0 ? out : undefined;
  };
  if (!Array.isArray(value)) return one(value);
  const items = value.map(one).filter((v) => v !== undefined);
  return items.length > 0 ? items : undefined;
}

function keysByLowercase(object: Readonly<Record<string, unknown>>): Map<string, string> {
  const keys = new Map<string, string>();
  for (const key of Object.keys(object)) {
    const lower = key.toLowerCase();
    if (!keys.has(lower)) keys.set(lower, key);
  }
  return keys;
}

function read(object: Readonly<Record<string, unknown>>, keys: Map<string, string>, name: string): unknown {
  const key = Object.prototype.hasOwnProperty.call(object, name) ? name : keys.get(name.toLowerCase());
  return key === undefined ? undefined : object[key];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function copy(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? structuredClone(value) : value;
}
