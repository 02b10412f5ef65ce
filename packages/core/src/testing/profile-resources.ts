import { parseAttrPath } from '../filter/parse-attr-path.js';
import type { ResourceModel } from '../schema/resource-model.js';
import type { ScimResource } from '../schema/scim-resource.js';
import type { StoreProfile } from './store-profile.js';

const ELEMENT = /^(.+)\[\s*(\w+)\s+eq\s+"([^"]*)"\s*\]\.(\w+)$/;

/** Text values chosen so case, accents (NFC and NFD), prefixes and order separate them. */
export const TEXT_POOL: readonly string[] = ['alpha', 'Alpha', 'ALPHA', 'beta', 'alp', 'zeta', 'Émile', 'e\u0301mile', 'jos\u00e9', 'Zoë', 'a_b%c', ''];

/** The id the kit proposes for a new resource of a profile. */
export function profileId(profile: StoreProfile): string {
  const id = globalThis.crypto.randomUUID();
  return profile.ids === 'prefixed' ? `u-${id}` : id;
}

/** Writes `value` at a declared path of `resource` (creating parents and the typed element). */
export function setPath(model: ResourceModel, resource: Record<string, unknown>, path: string, value: unknown): void {
  const element = ELEMENT.exec(path);
  if (element !== null) {
    const [, base = '', selector = '', selected = '', sub = ''] = element;
    const keys = keysOf(model, base);
    const holder = holderOf(resource, keys.slice(0, -1));
    const last = keys[keys.length - 1] as string;
    const list = Array.isArray(holder[last]) ? (holder[last] as Record<string, unknown>[]) : (holder[last] = []) as Record<string, unknown>[];
    list.push({ [selector]: selected, [sub]: value });
    return;
  }
  const keys = keysOf(model, path);
  holderOf(resource, keys.slice(0, -1))[keys[keys.length - 1] as string] = value;
}

/** Reads a declared path (the typed element's sub-attribute for `emails[type eq "work"].value`). */
export function getPath(model: ResourceModel, resource: Readonly<Record<string, unknown>>, path: string): unknown {
  const element = ELEMENT.exec(path);
  const keys = keysOf(model, element === null ? path : (element[1] as string));
  let value: unknown = resource;
  for (const key of keys) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  if (element === null) return value;
  const [, , selector = '', selected = '', sub = ''] = element;
  if (!Array.isArray(value)) return undefined;
  const found = value.find((e) => typeof e === 'object' && e !== null && String((e as Record<string, unknown>)[selector]).toLowerCase() === selected.toLowerCase());
  return found === undefined ? undefined : (found as Record<string, unknown>)[sub];
}

/** The type of a declared path's value. */
export function typeOf(model: ResourceModel, path: string): string {
  const element = ELEMENT.exec(path);
  const spelled = element === null ? path : `${element[1]}.${element[4]}`;
  const parsed = parseAttrPath(spelled);
  if (!parsed.ok) throw new Error(`conformance kit: '${path}' is not an attribute path`);
  return model.resolve(parsed.value)?.target.type ?? 'string';
}

function keysOf(model: ResourceModel, path: string): readonly string[] {
  const parsed = parseAttrPath(path);
  const resolved = parsed.ok ? model.resolve(parsed.value) : undefined;
  if (resolved === undefined) throw new Error(`conformance kit: '${path}' is not an attribute of ${model.definition.name}`);
  return resolved.keys;
}

function holderOf(resource: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  let holder = resource;
  for (const key of keys) {
    if (typeof holder[key] !== 'object' || holder[key] === null) holder[key] = {};
    holder = holder[key] as Record<string, unknown>;
  }
  return holder;
}

/** A user of the profile: `userName` unique, every other declared path from `pick` (undefined leaves it out). */
export function profileUser(profile: StoreProfile, index: number, pick: (path: string, type: string) => unknown, name?: string): ScimResource {
  const model = profile.user;
  const resource: Record<string, unknown> = { schemas: [model.core.id], id: profileId(profile) };
  const userName = name ?? `user${index}-${TEXT_POOL[index % TEXT_POOL.length] || 'x'}@example.com`;
  const values = new Map<string, unknown>([['userName', userName]]);
  for (const path of profile.declared) {
    if (path === 'userName') continue;
    const twin = profile.sameValue?.find(([a, b]) => a === path || b === path);
    const other = twin === undefined ? undefined : twin[0] === path ? twin[1] : twin[0];
    const value = other !== undefined && values.has(other) ? values.get(other) : pick(path, typeOf(model, path));
    values.set(path, value);
  }
  for (const [path, value] of values) if (value !== undefined) setPath(model, resource, path, value);
  const schemas = resource['schemas'] as string[];
  for (const extension of model.extensions) if (resource[extension.schema.id] !== undefined) schemas.push(extension.schema.id);
  resource['meta'] = { resourceType: model.definition.name, created: '2026-01-01T00:00:00.000Z', lastModified: '2026-01-01T00:00:00.000Z', version: 'W/"1"' };
  return resource as ScimResource;
}

/** `resource` with another `userName`, and the same value at the paths kept with it (`sameValue`). */
export function withUserName(profile: StoreProfile, resource: ScimResource, userName: string): ScimResource {
  const copy = structuredClone(resource) as Record<string, unknown>;
  copy['userName'] = userName;
  for (const [a, b] of profile.sameValue ?? []) {
    const twin = a === 'userName' ? b : b === 'userName' ? a : undefined;
    if (twin === undefined) continue;
    const element = ELEMENT.exec(twin);
    if (element === null) {
      setPath(profile.user, copy, twin, userName);
      continue;
    }
    const [, base = '', selector = '', selected = '', sub = ''] = element;
    const keys = keysOf(profile.user, base);
    const list = holderOf(copy, keys.slice(0, -1))[keys[keys.length - 1] as string];
    const found = Array.isArray(list) ? (list as Record<string, unknown>[]).find((e) => String(e[selector]).toLowerCase() === selected.toLowerCase()) : undefined;
    if (found !== undefined) found[sub] = userName;
    else setPath(profile.user, copy, twin, userName);
  }
  return copy as ScimResource;
}

/** A deterministic value for a declared path of the given type, varied by `n`. */
export function sampleValue(type: string, n: number): unknown {
  switch (type) {
    case 'boolean':
      return n % 3 !== 0;
    case 'integer':
      return (n * 37) % 101 - 50;
    case 'decimal':
      return ((n * 37) % 101) / 4 - 10;
    case 'dateTime':
      return new Date(Date.UTC(2026, 0, 1 + (n % 28), n % 24, 0, 0)).toISOString();
    default: {
      const text = TEXT_POOL[n % TEXT_POOL.length] as string;
      return text === '' ? undefined : `${text}${n % 4 === 0 ? '' : ` ${n % 5}`}`;
    }
  }
}
