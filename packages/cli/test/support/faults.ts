import type { ScimRequest, ScimResponse } from '@scimkit/core';
import type { FullServerOptions } from '../../../../examples/full-server/src/index.js';

export type Handle = (request: ScimRequest) => Promise<ScimResponse>;

/**
 * One way a SCIM server can be wrong, and the checks that must catch it. A fault changes the
 * full reference server's configuration, or rewrites requests and answers around its `handle()`.
 */
export interface Fault {
  readonly name: string;
  /** Every one of these checks must fail against the faulty server. */
  readonly targets: readonly string[];
  readonly config?: Partial<FullServerOptions>;
  /** For a fault that is a scimkit option turned off: the option each failure must name. */
  readonly option?: string;
  readonly wrap?: (inner: Handle) => Handle;
}

type Json = Record<string, unknown>;

const text = (body: unknown): string => (body === undefined ? '' : typeof body === 'string' ? body : body instanceof Uint8Array ? new TextDecoder().decode(body) : JSON.stringify(body));
const parse = (body: unknown): Json | undefined => {
  try {
    const value = JSON.parse(text(body)) as unknown;
    return typeof value === 'object' && value !== null ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
};
const answer = (response: ScimResponse, body: unknown): ScimResponse => ({ ...response, body: JSON.stringify(body) });
const error = (status: number, scimType?: string): ScimResponse => ({
  status,
  headers: { 'Content-Type': 'application/scim+json' },
  body: JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: String(status), ...(scimType === undefined ? {} : { scimType }), detail: 'fault' }),
});
const header = (request: ScimRequest, name: string): string | undefined => {
  const key = Object.keys(request.headers ?? {}).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : request.headers?.[key];
  return Array.isArray(value) ? value[0] : (value as string | undefined);
};
const withoutHeader = (request: ScimRequest, name: string): ScimRequest => ({
  ...request,
  headers: Object.fromEntries(Object.entries(request.headers ?? {}).filter(([key]) => key.toLowerCase() !== name)),
});
const filterOf = (request: ScimRequest): string => {
  const query = request.query?.['filter'];
  return typeof query === 'string' ? query : (parse(request.body)?.['filter'] as string | undefined) ?? '';
};
const isList = (request: ScimRequest): boolean => request.method === 'GET' && /^\/(Users|Groups)$/.test(request.path);
const isPatch = (request: ScimRequest): boolean => request.method.toUpperCase() === 'PATCH';
const emptyList = (): ScimResponse => ({
  status: 200,
  headers: { 'Content-Type': 'application/scim+json' },
  body: JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: 0, startIndex: 1, itemsPerPage: 0, Resources: [] }),
});

/** Answers `status` (a SCIM error) to the requests `when` picks; the others reach the server. */
const refuse =
  (when: (request: ScimRequest) => boolean, status: number, scimType?: string) =>
  (inner: Handle): Handle =>
  async (request) =>
    when(request) ? error(status, scimType) : inner(request);

/** Rewrites the PatchOp operations of every PATCH. */
const patchOperations =
  (rewrite: (operations: Json[]) => Json[] | ScimResponse) =>
  (inner: Handle): Handle =>
  async (request) => {
    if (!isPatch(request)) return inner(request);
    const body = parse(request.body);
    const operations = Array.isArray(body?.['Operations']) ? (body['Operations'] as Json[]) : [];
    const rewritten = rewrite(operations);
    if (!Array.isArray(rewritten)) return rewritten;
    if (rewritten.length === 0) return { status: 204, headers: {} };
    return inner({ ...request, body: JSON.stringify({ ...body, Operations: rewritten }) });
  };

/** Answers 400 invalidFilter to a filter the predicate picks (a server that does not support it). */
const refuseFilter = (test: (filter: string) => boolean) => refuse((request) => test(filterOf(request)), 400, 'invalidFilter');

/** Rewrites JSON answers. */
const mapAnswers =
  (rewrite: (body: Json, request: ScimRequest, response: ScimResponse) => unknown, when: (request: ScimRequest, response: ScimResponse) => boolean = () => true) =>
  (inner: Handle): Handle =>
  async (request) => {
    const response = await inner(request);
    const body = parse(response.body);
    return body !== undefined && when(request, response) ? answer(response, rewrite(body, request, response)) : response;
  };

/** Rewrites the list (`Resources`, `Operations`) of the answers to one path. */
const mapListed = (path: string, key: 'Resources' | 'Operations', rewrite: (entries: Json[]) => Json[]) =>
  mapAnswers((body) => ({ ...body, [key]: rewrite(Array.isArray(body[key]) ? (body[key] as Json[]) : []) }), (request) => request.path === path);

/** Drops a query parameter before the server sees it. */
const dropQuery =
  (name: string, when: (value: string) => boolean = () => true) =>
  (inner: Handle): Handle =>
  async (request) => {
    const value = request.query?.[name];
    if (typeof value !== 'string' || !when(value)) return inner(request);
    const query = { ...request.query };
    delete query[name];
    return inner({ ...request, query });
  };

const operator = (op: string) => (filter: string) => new RegExp(`\\s${op}\\s`, 'i').test(filter);

/** Every filter operator the checks use, refused one at a time ("drops a filter operator"). */
const OPERATOR_FAULTS: Fault[] = ['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le', 'and', 'or'].map((op) => ({
  name: `drops the ${op} operator`,
  targets: [`filters.${op}`],
  wrap: refuseFilter(operator(op)),
}));

export const FAULTS: readonly Fault[] = [
  ...OPERATOR_FAULTS,
  { name: 'drops pr', targets: ['filters.pr'], wrap: refuseFilter((f) => /\spr(\s|$)/i.test(f)) },
  { name: 'drops not', targets: ['filters.not'], wrap: refuseFilter((f) => /\bnot\s*\(/i.test(f)) },
  { name: 'refuses parentheses', targets: ['filters.precedence', 'filters.not'], wrap: refuseFilter((f) => f.includes('(')) },
  { name: 'refuses boolean values', targets: ['filters.boolean', 'filters.and'], wrap: refuseFilter((f) => /\s(true|false)\b/.test(f)) },
  { name: 'refuses value filters', targets: ['filters.value-path'], wrap: refuseFilter((f) => f.includes('[')) },
  { name: 'refuses sub-attributes in filters', targets: ['filters.sub-attribute', 'filters.datetime'], wrap: refuseFilter((f) => /\w\.\w+\s+(eq|gt)\s/i.test(f)) },
  { name: 'refuses dateTime comparison', targets: ['filters.datetime'], wrap: refuseFilter((f) => f.includes('meta.created')) },
  {
    name: 'compares userName with case',
    targets: ['filters.case-insensitive', 'users.okta-lookup'],
    wrap: (inner) => async (request) => {
      const value = /userName eq "([^"]*)"/i.exec(filterOf(request))?.[1] ?? '';
      return isList(request) && /[A-Z]/.test(value) ? emptyList() : inner(request);
    },
  },
  { name: 'finds nothing by externalId', targets: ['filters.entra-external-id'], wrap: (inner) => async (request) => (filterOf(request).includes('externalId') ? emptyList() : inner(request)) },

  // Discovery.
  { name: 'ServiceProviderConfig without etag', targets: ['discovery.service-provider-config'], wrap: mapAnswers(({ etag: _etag, ...rest }) => rest, (request) => request.path === '/ServiceProviderConfig') },
  {
    name: 'answers application/json',
    targets: ['discovery.media-type'],
    wrap: (inner) => async (request) => {
      const response = await inner(request);
      return { ...response, headers: { ...response.headers, 'Content-Type': 'application/json' } };
    },
  },
  {
    name: '/Schemas without the User schema',
    targets: ['discovery.schemas'],
    wrap: mapListed('/Schemas', 'Resources', (schemas) => schemas.filter((schema) => !String(schema['id']).endsWith(':User'))),
  },
  { name: '/Schemas/{id} not served', targets: ['discovery.schema-by-id'], wrap: refuse((request) => request.path.startsWith('/Schemas/'), 404) },
  {
    name: 'resource types without schemas',
    targets: ['discovery.resource-types'],
    wrap: mapListed('/ResourceTypes', 'Resources', (types) => types.map(({ schemas: _schemas, ...rest }) => rest)),
  },

  // Users.
  {
    name: 'no Location header',
    targets: ['users.create'],
    wrap: (inner) => async (request) => {
      const response = await inner(request);
      const { Location: _location, ...headers } = response.headers;
      return { ...response, headers };
    },
  },
  {
    name: 'GET by id drops displayName',
    targets: ['users.get'],
    wrap: mapAnswers(({ displayName: _d, ...rest }) => rest, (request) => request.method === 'GET' && /^\/Users\/[^/]+$/.test(request.path)),
  },
  {
    name: 'answers 200 where 404 is due',
    targets: ['users.not-found', 'users.okta-not-found-detail', 'users.delete', 'cleanup.deleted'],
    wrap: (inner) => async (request) => {
      const response = await inner(request);
      return response.status === 404 && request.path.startsWith('/Users/') ? { status: 200, headers: { 'Content-Type': 'application/scim+json' }, body: '{}' } : response;
    },
  },
  { name: 'an empty 404 detail', targets: ['users.okta-not-found-detail'], wrap: mapAnswers((body) => ({ ...body, detail: '' }), (_r, response) => response.status === 404) },
  {
    name: 'wrong scimType',
    targets: ['users.duplicate', 'errors.invalid-filter', 'errors.invalid-json', 'errors.invalid-path', 'paging.cursor-invalid'],
    wrap: mapAnswers((body) => ({ ...body, scimType: 'invalidValue' }), (_r, response) => response.status === 400 || response.status === 409),
  },
  {
    name: 'PUT merges instead of replacing',
    targets: ['users.replace'],
    wrap: (inner) => async (request) => {
      if (request.method !== 'PUT') return inner(request);
      const existing = parse((await inner({ method: 'GET', path: request.path, headers: request.headers ?? {} })).body) ?? {};
      const { meta: _meta, ...kept } = existing;
      return inner({ ...request, body: JSON.stringify({ ...kept, ...parse(request.body) }) });
    },
  },
  {
    name: 'PUT ignores emails',
    targets: ['users.onelogin-put-update'],
    wrap: (inner) => async (request) => {
      if (request.method !== 'PUT') return inner(request);
      const existing = parse((await inner({ method: 'GET', path: request.path, headers: request.headers ?? {} })).body) ?? {};
      return inner({ ...request, body: JSON.stringify({ ...parse(request.body), emails: existing['emails'] }) });
    },
  },
  {
    name: 'DELETE answers 204 and deletes nothing',
    targets: ['users.delete', 'groups.delete', 'cleanup.deleted'],
    wrap: (inner) => async (request) => (request.method === 'DELETE' ? { status: 204, headers: {} } : inner(request)),
  },
  {
    name: 'refuses application/json',
    targets: ['users.okta-create'],
    wrap: refuse((request) => header(request, 'content-type')?.startsWith('application/json') === true, 415),
  },
  {
    name: 'refuses PATCH operations without a path',
    targets: ['users.okta-deactivate', 'groups.okta-rename', 'patch.pathless-add', 'patch.entra-path-keys-in-value'],
    wrap: patchOperations((operations) => (operations.some((op) => op['path'] === undefined) ? error(400, 'invalidPath') : operations)),
  },

  // Groups.
  {
    name: 'drops members on create',
    targets: ['groups.create', 'groups.user-groups'],
    wrap: (inner) => async (request) => {
      if (request.method !== 'POST' || request.path !== '/Groups') return inner(request);
      const { members: _members, ...rest } = parse(request.body) ?? {};
      return inner({ ...request, body: JSON.stringify(rest) });
    },
  },
  { name: 'PATCH add replaces', targets: ['groups.patch-add-member', 'patch.add-multi-valued'], wrap: patchOperations((ops) => ops.map((op) => (String(op['op']).toLowerCase() === 'add' && op['path'] !== undefined ? { ...op, op: 'replace' } : op))) },
  {
    name: 'a remove with a value filter removes every value',
    targets: ['groups.patch-remove-member', 'groups.okta-members', 'patch.remove-value-filter'],
    wrap: patchOperations((ops) => ops.map((op) => (String(op['op']).toLowerCase() === 'remove' && typeof op['path'] === 'string' ? { ...op, path: op['path'].replace(/\[.*$/, '') } : op))),
  },
  { name: 'no User.groups', targets: ['groups.user-groups'], wrap: mapAnswers(({ groups: _groups, ...rest }) => rest, (request) => request.path.startsWith('/Users/')) },
  {
    name: 'op names are case-sensitive',
    targets: ['groups.entra-add-member', 'groups.entra-remove-value-array', 'patch.entra-capitalised-ops', 'patch.entra-manager-string'],
    wrap: patchOperations((ops) => (ops.some((op) => !['add', 'remove', 'replace'].includes(String(op['op']))) ? error(400, 'invalidValue') : ops)),
  },
  { name: 'remove with a value array refused', targets: ['groups.entra-remove-value-array', 'groups.onelogin-members'], config: { compatibility: { profile: 'entra', removeValueArray: false } }, option: 'compatibility.removeValueArray' },
  { name: 'excludedAttributes ignored', targets: ['groups.entra-lookup-excluding-members', 'attributes.excluded'], wrap: dropQuery('excludedAttributes') },

  // PATCH.
  {
    name: 'replace of a sub-attribute writes another one',
    targets: ['patch.replace-path'],
    wrap: patchOperations((ops) => ops.map((op) => (op['path'] === 'name.givenName' ? { ...op, path: 'name.familyName' } : op))),
  },
  { name: 'value path with a sub-attribute refused', targets: ['patch.replace-value-filter-sub', 'patch.entra-capitalised-ops', 'patch.entra-create-missing-value-path'], wrap: patchOperations((ops) => (ops.some((op) => /\]\./.test(String(op['path']))) ? error(400, 'invalidPath') : ops)) },
  { name: 'remove ignored', targets: ['patch.remove-attribute', 'patch.remove-value-filter'], wrap: patchOperations((ops) => ops.filter((op) => String(op['op']).toLowerCase() !== 'remove')) },
  {
    name: 'PATCH not atomic',
    targets: ['patch.atomic'],
    wrap: (inner) => async (request) => {
      if (!isPatch(request)) return inner(request);
      const body = parse(request.body) ?? {};
      let last: ScimResponse = { status: 204, headers: {} };
      for (const op of (body['Operations'] as Json[]) ?? []) {
        last = await inner({ ...withoutHeader(request, 'if-match'), body: JSON.stringify({ ...body, Operations: [op] }) });
        if (last.status >= 400) return last;
      }
      return last;
    },
  },
  { name: 'only the first operation applied', targets: ['patch.google-replace-paths'], wrap: patchOperations((ops) => ops.slice(0, 1)) },
  { name: 'string booleans refused', targets: ['patch.entra-capitalised-ops'], config: { compatibility: { profile: 'entra', stringBooleans: false } }, option: 'compatibility.stringBooleans' },
  { name: 'manager as a string refused', targets: ['patch.entra-manager-string'], config: { compatibility: { profile: 'entra', managerAsString: false } }, option: 'compatibility.managerAsString' },
  { name: 'paths as value keys refused', targets: ['patch.entra-path-keys-in-value'], config: { compatibility: { profile: 'entra', pathKeysInValue: false } }, option: 'compatibility.pathKeysInValue' },
  { name: 'RFC noTarget for a missing value path', targets: ['patch.entra-create-missing-value-path'], config: { compatibility: 'okta' }, option: 'compatibility.createMissingValuePath' },

  // ETags.
  {
    name: 'no ETag header',
    targets: ['etags.header'],
    wrap: (inner) => async (request) => {
      const response = await inner(request);
      const { ETag: _etag, ...headers } = response.headers;
      return { ...response, headers };
    },
  },
  { name: 'If-None-Match ignored', targets: ['etags.if-none-match'], wrap: (inner) => async (request) => inner(withoutHeader(request, 'if-none-match')) },
  { name: 'ignores If-Match', targets: ['etags.if-match-stale'], wrap: (inner) => async (request) => inner(withoutHeader(request, 'if-match')) },
  { name: 'If-Match always 412', targets: ['etags.if-match-current'], wrap: refuse((request) => header(request, 'if-match') !== undefined, 412) },
  {
    name: 'meta.version never changes',
    targets: ['etags.version-changes'],
    wrap: mapAnswers((body) => (typeof body['meta'] === 'object' ? { ...body, meta: { ...(body['meta'] as Json), version: 'W/"1"' } } : body)),
  },

  // Paging.
  { name: 'startIndex ignored', targets: ['paging.index'], wrap: dropQuery('startIndex') },
  { name: 'count=0 ignored', targets: ['paging.count-zero'], wrap: dropQuery('count', (value) => value === '0') },
  { name: 'sortOrder ignored', targets: ['paging.sort'], wrap: dropQuery('sortOrder') },
  { name: 'no nextCursor', targets: ['paging.cursor'], wrap: mapAnswers(({ nextCursor: _n, ...rest }) => rest) },
  {
    name: 'an unknown cursor reads as the first page',
    targets: ['paging.cursor-invalid'],
    wrap: (inner) => async (request) => {
      const response = await inner(request);
      return response.status === 400 && parse(response.body)?.['scimType'] === 'invalidCursor' ? inner({ ...request, query: { ...request.query, cursor: '' } }) : response;
    },
  },
  { name: 'no .search', targets: ['paging.search'], wrap: refuse((request) => request.path.endsWith('/.search'), 404) },

  // Bulk.
  {
    name: 'BulkResponse without bulkId',
    targets: ['bulk.bulk-id'],
    wrap: mapListed('/Bulk', 'Operations', (operations) => operations.map(({ bulkId: _b, ...rest }) => rest)),
  },
  {
    name: 'failOnErrors ignored',
    targets: ['bulk.fail-on-errors'],
    wrap: (inner) => async (request) => {
      if (request.path !== '/Bulk') return inner(request);
      const { failOnErrors: _f, ...rest } = parse(request.body) ?? {};
      return inner({ ...request, body: JSON.stringify(rest) });
    },
  },

  // Errors and attributes.
  {
    name: 'an HTML 404 for an unknown endpoint',
    targets: ['errors.unknown-endpoint'],
    wrap: (inner) => async (request) => (/^\/(Users|Groups|Schemas|ResourceTypes|ServiceProviderConfig|Bulk|Me|\.search)(\/|$)/.test(request.path) ? inner(request) : { status: 404, headers: { 'Content-Type': 'text/html' }, body: '<h1>Not Found</h1>' }),
  },
  { name: 'errors without detail', targets: ['errors.missing-required', 'users.okta-not-found-detail'], wrap: mapAnswers(({ detail: _d, ...rest }) => rest, (_r, response) => response.status >= 400) },
  {
    name: 'PUT changes the id',
    targets: ['errors.mutability'],
    wrap: (inner) => async (request) => {
      const response = await inner(request);
      const sent = parse(request.body)?.['id'];
      return request.method === 'PUT' && response.status === 200 && typeof sent === 'string' ? answer(response, { ...parse(response.body), id: sent }) : response;
    },
  },
  {
    name: 'no authentication required',
    targets: ['errors.unauthenticated'],
    wrap: (inner) => async (request) => (header(request, 'authorization') ? inner(request) : inner({ ...request, headers: { ...request.headers, authorization: `Bearer ${FAULTY_TOKEN}` } })),
  },
  { name: 'attributes ignored', targets: ['attributes.attributes', 'attributes.list'], wrap: dropQuery('attributes') },
];

export const FAULTY_TOKEN = 'faulty-server-token';
