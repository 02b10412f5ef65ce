import { URN } from '../../schema/urns.js';
import { field, isRecord } from './member-key.js';

/**
 * The `display` a client gave each member, by member key. `members.display` is readOnly in the
 * Group schema (RFC 7643 §8.7.1 errata), so validation drops it; decisions.md keeps the client's
 * (an IdP knows the name it shows), so it is read here from the request itself.
 */
export function displaysInResource(body: unknown, keyOf: (element: unknown) => string | undefined): ReadonlyMap<string, string> {
  const displays = new Map<string, string>();
  if (!isRecord(body)) return displays;
  collect(membersOf(body), keyOf, displays);
  return displays;
}

/**
 * The same from a PATCH request: values of operations whose `path` is `members`, and the `members`
 * of path-less values (RFC 7644 §3.5.2; Entra's and Okta's group pushes).
 */
export function displaysInPatch(body: unknown, keyOf: (element: unknown) => string | undefined): ReadonlyMap<string, string> {
  const displays = new Map<string, string>();
  const operations = isRecord(body) ? field(body, 'Operations') : undefined;
  if (!Array.isArray(operations)) return displays;
  for (const operation of operations) {
    if (!isRecord(operation)) continue;
    const path = field(operation, 'path');
    const value = field(operation, 'value');
    if (typeof path === 'string' && path.trim() !== '') {
      if (isMembersPath(path.trim())) collect(value, keyOf, displays);
    } else if (isRecord(value)) {
      collect(membersOf(value), keyOf, displays);
    }
  }
  return displays;
}

function membersOf(body: Readonly<Record<string, unknown>>): unknown {
  return field(body, 'members') ?? field(body, `${URN.group}:members`);
}

function isMembersPath(path: string): boolean {
  const lower = path.toLowerCase();
  return lower === 'members' || lower === `${URN.group.toLowerCase()}:members`;
}

function collect(value: unknown, keyOf: (element: unknown) => string | undefined, into: Map<string, string>): void {
  for (const element of Array.isArray(value) ? value : [value]) {
    if (!isRecord(element)) continue;
    const display = field(element, 'display');
    const key = keyOf(element);
    if (key !== undefined && typeof display === 'string' && display !== '' && !into.has(key)) into.set(key, display);
  }
}
