import type { MultiValuedChange } from '../store/scim-store.js';
import { jsonEqual } from '../values/index.js';

/** Keys of a resource that are not attributes a write changes. */
const NOT_ATTRIBUTES = new Set(['id', 'meta', 'schemas']);

/**
 * The attribute paths whose values differ between two versions of a resource: a top-level
 * attribute (`emails`), a sub-attribute of a single-valued complex one (`name.givenName`), an
 * extension attribute (`urn:…:User:employeeNumber`, `urn:…:User:manager.value`). Attributes that
 * `changes` names are known changed without comparing them (a group of 100,000 members is not
 * compared); values shared between the versions (copy-on-write) are not compared either.
 */
export function changedPaths(before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>, changes?: readonly MultiValuedChange[]): string[] {
  const known = new Set<string>();
  for (const change of changes ?? []) {
    if (change.added.length > 0 || change.removed.length > 0) known.add(change.attribute);
  }
  const paths: string[] = [];
  for (const key of unionOfKeys(before, after)) {
    if (NOT_ATTRIBUTES.has(key)) continue;
    if (known.has(key)) {
      paths.push(key);
      continue;
    }
    const a = before[key];
    const b = after[key];
    if (a === b || jsonEqual(a, b)) continue;
    if (key.startsWith('urn:') && isObject(a) && isObject(b)) {
      for (const inner of subPaths(a, b)) paths.push(`${key}:${inner}`);
    } else if (isObject(a) && isObject(b)) {
      for (const inner of subPaths(a, b)) paths.push(`${key}.${inner}`);
    } else if (key.startsWith('urn:') && (isObject(a) || isObject(b))) {
      for (const inner of Object.keys(isObject(a) ? a : (b as Record<string, unknown>))) paths.push(`${key}:${inner}`);
    } else {
      paths.push(key);
    }
  }
  return paths;
}

/** One level down: the keys whose values differ, a complex value's sub-keys joined with a dot. */
function subPaths(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): string[] {
  const paths: string[] = [];
  for (const key of unionOfKeys(a, b)) {
    const x = a[key];
    const y = b[key];
    if (x === y || jsonEqual(x, y)) continue;
    if (isObject(x) && isObject(y)) for (const inner of unionOfKeys(x, y)) (jsonEqual(x[inner], y[inner]) ? undefined : paths.push(`${key}.${inner}`));
    else paths.push(key);
  }
  return paths;
}

function unionOfKeys(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): string[] {
  const keys = Object.keys(a);
  for (const key of Object.keys(b)) if (!Object.prototype.hasOwnProperty.call(a, key)) keys.push(key);
  return keys;
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
