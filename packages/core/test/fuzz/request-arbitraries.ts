import fc from 'fast-check';

/*
 * Generators of SCIM requests for the fuzz suites: realistic bodies (what Entra ID and Okta send,
 * RFC 7644 examples), then mutated (a member dropped, retyped, replaced by hostile JSON, nested,
 * repeated), random query strings, paths and header values.
 */

export const URN = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  enterprise: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
  patchOp: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  search: 'urn:ietf:params:scim:api:messages:2.0:SearchRequest',
  bulk: 'urn:ietf:params:scim:api:messages:2.0:BulkRequest',
} as const;

export interface FuzzRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string | string[]>;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

/** Ids the data set holds (see reference-data.ts), so writes and reads often hit something. */
export interface KnownIds {
  readonly users: readonly string[];
  readonly groups: readonly string[];
}

const hostileString = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('', ' ', '\u0000', 'jose\u0301', 'JOSÉ', '\ud83d\ude00', '%00', '../..', '"', '\\', '<script>', 'true', 'null', '1e400', '-0', '__proto__', 'constructor'),
  fc.integer({ min: 1_000, max: 20_000 }).map((n) => 'x'.repeat(n)),
);

/** Any JSON value, sometimes a hostile one. */
const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 2, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.constantFrom(null, true, 0, -1, 1e308, 2 ** 53 + 1, [], {}, [[[[[[[[[[]]]]]]]]]], { __proto__: { polluted: true } }) },
  { weight: 1, arbitrary: fc.integer({ min: 50, max: 3_000 }).map((n) => Array.from({ length: n }, (_, i) => ({ value: `v${i}@example.com` }))) },
);

const userName = fc.oneof(fc.stringMatching(/^[a-z]{1,8}@example\.com$/), hostileString);

function userBody(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    schemas: [URN.user, URN.enterprise],
    userName: name,
    externalId: `ext-${name.length}`,
    active: true,
    name: { givenName: 'Barbara', familyName: 'Jensen', formatted: 'Barbara Jensen' },
    displayName: 'Babs',
    emails: [{ value: 'bjensen@example.com', type: 'work', primary: true }],
    phoneNumbers: [{ value: '+1 555 0100', type: 'mobile' }],
    [URN.enterprise]: { employeeNumber: '701984', department: 'Tour Operations', manager: { value: 'm-1' } },
    ...extra,
  };
}

function patchBody(operations: unknown[]): Record<string, unknown> {
  return { schemas: [URN.patchOp], Operations: operations };
}

const patchPath = fc.constantFrom(
  'userName', 'active', 'displayName', 'name.givenName', 'emails', 'emails[type eq "work"].value', 'emails[primary eq true]',
  'phoneNumbers[type eq "mobile"]', 'members', 'members[value eq "u-1"]', 'displayName',
  `${URN.enterprise}:manager`, `${URN.enterprise}:employeeNumber`, 'meta.version', 'id', 'schemas', 'x.y', 'emails[', 'emails[value co "@"].display',
);

const operation = fc.record(
  { op: fc.constantFrom('add', 'replace', 'remove', 'Add', 'Replace', 'Remove', 'copy', ''), path: patchPath, value: anyJson },
  { requiredKeys: ['op'] },
);

/** Realistic bodies for each kind of endpoint, before mutation. */
function templates(ids: KnownIds) {
  const member = fc.constantFrom(...ids.users, 'not-a-user').map((value) => ({ value }));
  return {
    user: userName.map((name) => userBody(name)),
    group: fc.tuple(fc.string({ maxLength: 12 }), fc.array(member, { maxLength: 5 })).map(([displayName, members]) => ({ schemas: [URN.group], displayName, members })),
    patch: fc.oneof(
      fc.array(operation, { maxLength: 5 }).map(patchBody),
      // Entra ID: add and remove members, path-less replace with path keys, string booleans.
      member.map((m) => patchBody([{ op: 'Add', path: 'members', value: [m] }])),
      member.map((m) => patchBody([{ op: 'Remove', path: 'members', value: [m] }])),
      fc.constant(patchBody([{ op: 'Replace', value: { active: 'False', 'name.givenName': 'B', [`${URN.enterprise}:department`]: 'X' } }])),
      // Okta: replace the whole user state.
      fc.constant(patchBody([{ op: 'replace', value: { active: false } }])),
    ),
    search: fc.record(
      {
        schemas: fc.constant([URN.search]),
        filter: filterText,
        startIndex: fc.oneof(fc.integer({ min: -5, max: 3000 }), fc.string({ maxLength: 4 })),
        count: fc.oneof(fc.integer({ min: -5, max: 2000 }), fc.string({ maxLength: 4 })),
        sortBy: fc.constantFrom('userName', 'meta.location', 'emails', 'name.familyName', 'meta.lastModified', 'displayName', 'x'),
        sortOrder: fc.constantFrom('ascending', 'descending', 'sideways'),
        attributes: fc.array(fc.constantFrom('userName', 'emails.value', 'members', 'displayName', 'x'), { maxLength: 3 }),
        excludedAttributes: fc.array(fc.constantFrom('members', 'emails', 'groups'), { maxLength: 2 }),
      },
      { requiredKeys: ['schemas'] },
    ),
    bulk: fc.array(
      fc.oneof(
        userName.map((name) => ({ method: 'POST', path: '/Users', bulkId: name.slice(0, 8), data: userBody(name) })),
        fc.constantFrom(...ids.users).map((id) => ({ method: 'PATCH', path: `/Users/${id}`, data: patchBody([{ op: 'replace', path: 'active', value: false }]) })),
        fc.constantFrom(...ids.users).map((id) => ({ method: 'DELETE', path: `/Users/${id}` })),
        fc.record({ method: fc.constantFrom('GET', 'PUT', 'POST', 'bogus'), path: fc.constantFrom('/Users', '/Groups', '/Users/x', 'bulkId:qwerty', ''), data: anyJson }, { requiredKeys: [] }),
      ),
      { maxLength: 4 },
    ).map((Operations) => ({ schemas: [URN.bulk], failOnErrors: 1, Operations })),
  };
}

/** Filters: valid ones Entra and Okta send, the RFC's examples, random text, and heavy ones. */
export const filterText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'userName eq "u1@example.com"', 'externalId eq "ext-1"', 'displayName eq "Group 1"', 'emails[type eq "work"].value eq "u1@example.com"',
    'userName sw "u" and active eq true', 'name.familyName co "son" or emails co "example"', 'meta.lastModified gt "2020-01-01T00:00:00Z"',
    'members[value eq "u-1"]', 'meta.location co "Users"', 'not (userName pr)', 'title pr', 'userName eq null', 'userName gt 3',
    'emails[type eq "work" and value co "@"]', 'emails[value co "x"].display', 'password eq "x"', '((((', 'userName eq', '',
    Array.from({ length: 385 }, (_, i) => `emails.value co "x${i}"`).join(' or '),
    Array.from({ length: 60 }, () => '(').join('') + 'userName pr' + Array.from({ length: 60 }, () => ')').join(''),
  ),
  fc.string({ maxLength: 40 }),
  fc.tuple(fc.constantFrom('userName', 'emails.value', 'members.value', 'name.givenName', 'id', 'meta.created'), fc.constantFrom('eq', 'ne', 'co', 'sw', 'ew', 'gt', 'lt', 'pr'), fc.string({ maxLength: 10 }))
    .map(([path, op, value]) => (op === 'pr' ? `${path} pr` : `${path} ${op} ${JSON.stringify(value)}`)),
);

type Mutation = { readonly at: number; readonly kind: number; readonly value: unknown };

const mutation: fc.Arbitrary<Mutation> = fc.record({ at: fc.nat(), kind: fc.nat(6), value: anyJson });

/** Applies `mutations` to a copy of `body`: each picks a node (by index among all nodes) and changes it. */
export function mutate(body: unknown, mutations: readonly Mutation[]): unknown {
  let copy: unknown = structuredClone(body);
  for (const { at, kind, value } of mutations) {
    const nodes: { holder: Record<string, unknown> | unknown[]; key: string | number }[] = [];
    const walk = (node: unknown): void => {
      if (typeof node !== 'object' || node === null) return;
      for (const key of Object.keys(node)) {
        nodes.push({ holder: node as Record<string, unknown>, key: Array.isArray(node) ? Number(key) : key });
        walk((node as Record<string, unknown>)[key]);
      }
    };
    walk(copy);
    if (nodes.length === 0) {
      copy = value;
      continue;
    }
    const { holder, key } = nodes[at % nodes.length] as (typeof nodes)[number];
    const target = holder as Record<string | number, unknown>;
    const current = target[key];
    switch (kind) {
      case 0:
        if (Array.isArray(holder)) holder.splice(key as number, 1);
        else delete target[key];
        break;
      case 1:
        target[key] = value;
        break;
      case 2:
        target[key] = [current, current];
        break;
      case 3:
        // A generated object may hold a non-callable `toString` key, which String() cannot convert.
        target[key] = typeof current === 'string' ? current.toUpperCase() + '\u0301' : typeof current === 'object' && current !== null ? JSON.stringify(current) : String(current);
        break;
      case 4:
        target[key] = { nested: current, [String(key)]: current };
        break;
      case 5:
        if (!Array.isArray(holder)) target[`${String(key)}`.toUpperCase()] = value;
        else holder.push(value);
        break;
      default:
        target[key] = Array.isArray(current) ? [...current, ...current] : [current];
    }
  }
  return copy;
}

/** A realistic body of each kind, mutated zero to three times, as text (sometimes broken text). */
function bodyFor(kind: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.tuple(kind, fc.array(mutation, { maxLength: 3 })).map(([body, mutations]) => JSON.stringify(mutate(body, mutations)) ?? 'null') },
    { weight: 1, arbitrary: fc.tuple(kind, fc.nat()).map(([body, cut]) => {
      const text = JSON.stringify(body);
      return text.slice(0, cut % (text.length + 1));
    }) },
    { weight: 1, arbitrary: fc.oneof(fc.json({ maxDepth: 3 }), fc.string({ maxLength: 30 }), fc.constantFrom('{"a":1,"a":2}', '{"userName":"\\ud800"}', '\ufeff{}', '[]')) },
  );
}

const segment = fc.oneof(
  fc.constantFrom('Users', 'users', 'Groups', '.search', 'Schemas', 'ResourceTypes', 'ServiceProviderConfig', 'Bulk', 'Me', '%', '%E0%A4%A', '__proto__', '..', ''),
  fc.string({ maxLength: 10 }),
);

const queryValue = fc.oneof(filterText, fc.string({ maxLength: 20 }), fc.constantFrom('-1', '0', '1e309', '2147483648', 'members', 'userName,emails'));
const queryName = fc.oneof(
  fc.constantFrom('filter', 'startIndex', 'count', 'sortBy', 'sortOrder', 'attributes', 'excludedAttributes', 'STARTINDEX', 'cursor', '__proto__'),
  fc.string({ maxLength: 8 }),
);
export const query = fc.dictionary(queryName, fc.oneof({ weight: 4, arbitrary: queryValue }, { weight: 1, arbitrary: fc.array(queryValue, { maxLength: 150 }) }), { maxKeys: 5 });

const headerValue = fc.oneof(
  fc.stringMatching(/^[\x20-\x7e]{0,30}$/),
  fc.constantFrom('application/scim+json', 'application/json; charset=utf-8', 'application/scim+json; charset=latin1', 'text/plain', 'multipart/form-data', '*', 'W/"1"', 'W/"x", *', 'Bearer s3cret', 'Basic Zm9vOmJhcg=='),
);
export const headers = fc.record(
  {
    'content-type': fc.oneof({ weight: 5, arbitrary: fc.constant('application/scim+json') }, { weight: 1, arbitrary: headerValue }),
    'if-match': headerValue,
    'if-none-match': headerValue,
    host: fc.oneof(fc.constant('idp.example.com'), headerValue),
    accept: headerValue,
  },
  { requiredKeys: ['content-type'] },
);

/** Requests of every shape: mostly to real endpoints and ids, with realistic-then-mutated bodies. */
export function requests(ids: KnownIds): fc.Arbitrary<FuzzRequest> {
  const t = templates(ids);
  const user = fc.constantFrom(...ids.users, 'missing-id', '%2e%2e');
  const group = fc.constantFrom(...ids.groups, 'missing-id');
  const shaped = fc.oneof(
    fc.tuple(fc.constant('POST'), fc.constant('/Users'), bodyFor(t.user)),
    fc.tuple(fc.constant('PUT'), user.map((id) => `/Users/${id}`), bodyFor(t.user)),
    fc.tuple(fc.constant('PATCH'), user.map((id) => `/Users/${id}`), bodyFor(t.patch)),
    fc.tuple(fc.constant('POST'), fc.constant('/Groups'), bodyFor(t.group)),
    fc.tuple(fc.constant('PUT'), group.map((id) => `/Groups/${id}`), bodyFor(t.group)),
    fc.tuple(fc.constant('PATCH'), group.map((id) => `/Groups/${id}`), bodyFor(t.patch)),
    fc.tuple(fc.constant('POST'), fc.constantFrom('/Users/.search', '/Groups/.search', '/.search'), bodyFor(t.search)),
    fc.tuple(fc.constant('POST'), fc.constantFrom('/Bulk', '/bulk/'), bodyFor(t.bulk)),
    fc.tuple(fc.constantFrom('GET', 'HEAD', 'DELETE'), fc.oneof(user.map((id) => `/Users/${id}`), group.map((id) => `/Groups/${id}`), fc.constantFrom('/Users', '/Groups', '/Schemas', '/ResourceTypes', '/ServiceProviderConfig', '/Me')), fc.constant(undefined)),
    fc.tuple(fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'get', 'TRACE', ''), fc.array(segment, { maxLength: 4 }).map((s) => `/${s.join('/')}`), fc.option(bodyFor(t.user), { nil: undefined })),
  );
  return fc.tuple(shaped, query, headers).map(([[method, path, body], q, h]) => ({ method, path, query: q, headers: h, ...(body === undefined ? {} : { body }) }));
}

/** The most expensive requests a client can send in 1 MiB, each with random parts. */
export function heavyRequests(ids: KnownIds): fc.Arbitrary<FuzzRequest> {
  const json = { 'content-type': 'application/scim+json' };
  const terms = (n: number, path: string, op: string) => Array.from({ length: n }, (_, i) => `${path} ${op} "x${i}"`).join(' or ');
  const heavyFilter = fc.tuple(fc.integer({ min: 50, max: 400 }), fc.constantFrom('emails.value', 'emails', 'members.value', 'name.formatted', 'phoneNumbers.value'), fc.constantFrom('co', 'ew', 'sw', 'eq', 'gt'))
    .map(([n, path, op]) => terms(n, path, op))
    .filter((text) => text.length <= 10_000);
  const search = fc.record({
    path: fc.constantFrom('/Users/.search', '/Groups/.search', '/.search'),
    filter: heavyFilter,
    sortBy: fc.constantFrom(undefined, 'meta.location', 'userName', 'emails.value', 'displayName'),
    count: fc.constantFrom(undefined, 1000, 0),
  }).map(({ path, filter, sortBy, count }): FuzzRequest => ({
    method: 'POST',
    path,
    query: {},
    headers: json,
    body: JSON.stringify({ schemas: [URN.search], filter, ...(sortBy === undefined ? {} : { sortBy }), ...(count === undefined ? {} : { count }) }),
  }));
  const list = fc.record({
    path: fc.constantFrom('/Users', '/Groups'),
    sortBy: fc.constantFrom('meta.location', 'userName', 'displayName', 'meta.lastModified', 'emails'),
    filter: fc.constantFrom('meta.location co "/"', 'emails co "example"', 'members pr', 'userName pr', 'not (active eq false)'),
    attributes: fc.array(fc.constantFrom('members', 'emails', 'userName', 'x'), { minLength: 0, maxLength: 99 }),
  }).map(({ path, sortBy, filter, attributes }): FuzzRequest => ({ method: 'GET', path, query: { sortBy, filter, count: '1000', attributes }, headers: {} }));
  const bigPatch = fc.oneof(
    // Thousands of values in one add, to a user or to the largest group.
    fc.integer({ min: 1_000, max: 10_000 }).map((n): FuzzRequest => ({
      method: 'PATCH', path: `/Users/${ids.users[0]}`, query: {}, headers: json,
      body: JSON.stringify({ schemas: [URN.patchOp], Operations: [{ op: 'add', path: 'emails', value: Array.from({ length: n }, (_, i) => ({ value: `n${i}@example.com` })) }] }),
    })),
    fc.integer({ min: 100, max: 1_000 }).map((n): FuzzRequest => ({
      method: 'PATCH', path: `/Groups/${ids.groups[0]}`, query: { excludedAttributes: 'members' }, headers: json,
      body: JSON.stringify({ schemas: [URN.patchOp], Operations: Array.from({ length: n }, (_, i) => (i % 2 === 0 ? { op: 'add', path: 'members', value: [{ value: `u-${i}` }] } : { op: 'remove', path: `members[value eq "u-${i}"]` })) }),
    })),
    fc.integer({ min: 100, max: 1_000 }).map((n): FuzzRequest => ({
      method: 'PATCH', path: `/Groups/${ids.groups[0]}`, query: {}, headers: json,
      body: JSON.stringify({ schemas: [URN.patchOp], Operations: Array.from({ length: n }, () => ({ op: 'replace', path: 'members[value co "u"].display', value: 'x' })) }),
    })),
  );
  return fc.oneof(search, list, bigPatch);
}
