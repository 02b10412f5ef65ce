import type { ScimMeta, ScimResource } from '../schema/scim-resource.js';
import { URN } from '../schema/urns.js';
import type { UniqueAttribute, WriteContext } from '../store/scim-store.js';
import { EXTRA_URN } from './conformance-schema.js';

/** `userName` is unique ignoring case, as the User schema declares (RFC 7643 §4.1.1). */
export const USER_CONTEXT: WriteContext = { unique: [{ path: 'userName', caseExact: false }] };
export const NO_UNIQUE: WriteContext = { unique: [] };

export function uniqueContext(...unique: UniqueAttribute[]): WriteContext {
  return { unique };
}

/** `USER_CONTEXT` (or `base`) acting for `tenant`. */
export function inTenant(tenant: string | undefined, base: WriteContext = USER_CONTEXT): WriteContext {
  return tenant === undefined ? base : { ...base, tenant };
}

const DEFAULT_META = { created: '2026-01-01T00:00:00.000Z', lastModified: '2026-01-01T00:00:00.000Z', version: 'W/"1"' };

function freshId(prefix: string): string {
  return `${prefix}-${globalThis.crypto.randomUUID()}`;
}

/** A stored-form user: the core assigns id and meta, so the kit does too. */
export function user(userName: string, attributes: Record<string, unknown> = {}, id = freshId('u')): ScimResource {
  return {
    schemas: [URN.user, ...(attributes[URN.enterpriseUser] ? [URN.enterpriseUser] : []), ...(attributes[EXTRA_URN] ? [EXTRA_URN] : [])],
    id,
    userName,
    ...attributes,
    meta: (attributes['meta'] as ScimMeta | undefined) ?? { resourceType: 'User', ...DEFAULT_META },
  };
}

export function group(displayName: string, id = freshId('g'), members?: readonly Record<string, unknown>[]): ScimResource {
  return {
    schemas: [URN.group],
    id,
    displayName,
    ...(members === undefined ? {} : { members: [...members] }),
    meta: { resourceType: 'Group', ...DEFAULT_META },
  };
}

/** A stored-form `members` element for the resource `id`. */
export function member(id: string, type = 'User'): Record<string, unknown> {
  return { value: id, type, $ref: `https://example.com/v2/${type}s/${id}`, display: `Member ${id}` };
}

/** The same resource at the next version, with changes. */
export function revise(resource: ScimResource, changes: Record<string, unknown>, version: string): ScimResource {
  return { ...resource, ...changes, meta: { ...resource.meta, lastModified: '2026-01-02T00:00:00.000Z', version } };
}

/**
 * The population every filter and sort case runs against. Values are chosen so each RFC rule
 * separates them: case, instants written with offsets, numbers that sort differently as strings,
 * multi-valued any-match, empty values for `pr`.
 */
export function population(): ScimResource[] {
  return [
    user('alice', {
      externalId: 'EXT-a',
      name: { givenName: 'Alice', familyName: 'Smith' },
      title: 'Engineer',
      active: true,
      emails: [
        { value: 'alice@work.example', type: 'work', primary: true },
        { value: 'alice@home.example', type: 'home' },
      ],
      meta: { resourceType: 'User', created: '2026-01-01T10:00:00.000Z', lastModified: '2026-03-01T00:00:00.000Z', version: 'W/"1"' },
      [EXTRA_URN]: { level: 10, score: 2.5, flag: true, since: '2026-05-01T12:00:00+02:00', code: 'AbC', tags: ['red', 'green'] },
    }),
    user('Bob', {
      externalId: 'ext-b',
      name: { givenName: 'Bob', familyName: 'smith' },
      active: false,
      emails: [{ value: 'bob@home.example', type: 'home' }],
      nickName: '',
      meta: { resourceType: 'User', created: '2026-01-02T10:00:00.000Z', lastModified: '2026-02-01T00:00:00.000Z', version: 'W/"1"' },
      [EXTRA_URN]: { level: 9, score: -1, flag: false, since: '2026-05-01T10:00:00Z', code: 'abc', tags: [] },
    }),
    user('carol', {
      name: { givenName: 'Carol', familyName: 'Jones' },
      title: 'Manager',
      active: true,
      emails: [
        { value: 'z-carol@work.example', type: 'work' },
        { value: 'a-carol@other.example', type: 'other', primary: true },
      ],
      [URN.enterpriseUser]: { department: 'Sales', employeeNumber: '003' },
      meta: { resourceType: 'User', created: '2026-01-03T10:00:00.000Z', lastModified: '2026-01-03T10:00:00.000Z', version: 'W/"1"' },
      [EXTRA_URN]: { level: 100, score: 2.25, since: '2026-05-01T09:59:59Z', tags: ['blue'] },
    }),
    user('dave', {
      name: { givenName: 'Dave' },
      active: true,
      meta: { resourceType: 'User', created: '2026-01-04T10:00:00.000Z', lastModified: '2026-01-04T10:00:00.000Z', version: 'W/"1"' },
    }),
  ];
}
