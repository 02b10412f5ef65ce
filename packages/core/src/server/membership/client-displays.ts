import { URN } from '../../schema/urns.js';
import { field, isRecord, type JsonRecord } from './member-key.js';

/**
 * The member elements a request writes, as the client sent them. Validation drops what the Group
 * schema says a client cannot set (`members.display` is readOnly, RFC 7643 §8.7.1 errata) and
 * elements left empty, so two things are read here from the request itself: the client's
 * `display` of each member (docs/concepts/groups-and-membership.md keeps it: an IdP knows the name it shows), and whether an
 * element lacks the `value` that makes it a member.
 */
export interface ClientMembers {
  /** The client's `display` of each member, by member key. */
  readonly displays: ReadonlyMap<string, string>;
  /** An element written without a string `value`, if any. */
  readonly withoutValue?: JsonRecord;
  /** The request replaces the whole list (`replace` of `members`, or path-less): it may repeat members. */
  readonly replacesList?: boolean;
}

/** From a POST or PUT body: its `members`. */
export function membersInResource(body: unknown, keyOf: (element: unknown) => string | undefined): ClientMembers {
  return isRecord(body) ? gather([membersOf(body)], keyOf) : { displays: new Map() };
}

/**
 * From a PATCH request: values of `add`/`replace` operations whose `path` is `members`, and the
 * `members` of path-less values (RFC 7644 §3.5.2; Entra's and Okta's group pushes).
 */
export function membersInPatch(body: unknown, keyOf: (element: unknown) => string | undefined): ClientMembers {
  const operations = isRecord(body) ? field(body, 'Operations') : undefined;
  if (!Array.isArray(operations)) return { displays: new Map() };
  const values: unknown[] = [];
  let replacesList = false;
  for (const operation of operations) {
    if (!isRecord(operation)) continue;
    const op = field(operation, 'op');
    if (typeof op !== 'string' || !['add', 'replace'].includes(op.toLowerCase())) continue;
    const path = field(operation, 'path');
    const value = field(operation, 'value');
    const replace = op.toLowerCase() === 'replace';
    if (typeof path === 'string' && path.trim() !== '') {
      if (isMembersPath(path.trim())) {
        values.push(value);
        replacesList ||= replace;
      }
    } else if (isRecord(value)) {
      const members = membersOf(value);
      values.push(members);
      replacesList ||= replace && members !== undefined;
    }
  }
  return { ...gather(values, keyOf), ...(replacesList ? { replacesList } : {}) };
}

function membersOf(body: JsonRecord): unknown {
  return field(body, 'members') ?? field(body, `${URN.group}:members`);
}

function isMembersPath(path: string): boolean {
  const lower = path.toLowerCase();
  return lower === 'members' || lower === `${URN.group.toLowerCase()}:members`;
}

function gather(values: readonly unknown[], keyOf: (element: unknown) => string | undefined): ClientMembers {
  const displays = new Map<string, string>();
  let withoutValue: JsonRecord | undefined;
  for (const value of values) {
    for (const element of Array.isArray(value) ? value : [value]) {
      if (!isRecord(element)) continue;
      const key = keyOf(element);
      if (key === undefined) {
        withoutValue ??= element;
        continue;
      }
      const display = field(element, 'display');
      if (typeof display === 'string' && display !== '' && !displays.has(key)) displays.set(key, display);
    }
  }
  return { displays, ...(withoutValue === undefined ? {} : { withoutValue }) };
}
