/**
 * PATCH engine benchmark: `npx tsx bench/patch.bench.ts`.
 *
 * For each scenario, the same change made two ways in the same run:
 * - the engine: `applyPatch` (parse, resolve against the schema, RFC 6902 ops applied by
 *   fast-json-patch on a deep copy, unassigned values dropped, `changed` computed), then
 *   `validateResource` on the result, as the server does;
 * - by hand: the minimal immutable update a developer would write for that one request (shallow
 *   copies of what changes), then the same `validateResource`.
 * The hand-written result is checked deep-equal to the engine's before timing. Ratios are printed.
 */
import { applyPatch, validateResource } from '../packages/core/src/engine/index.js';
import { builtinResourceTypes, createSchemaRegistry } from '../packages/core/src/schema/index.js';
import type { ScimResource } from '../packages/core/src/schema/scim-resource.js';
import { isDeepStrictEqual } from 'node:util';

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const registry = createSchemaRegistry({ resourceTypes: builtinResourceTypes });
const userModel = registry.resourceType('User');
const groupModel = registry.resourceType('Group');
if (userModel === undefined || groupModel === undefined) throw new Error('missing resource types');

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** Median µs per call of `run`, over rounds of `n` calls, after warming up. */
function perCall(run: () => unknown, n: number, rounds = 9): number {
  for (let i = 0; i < n; i++) run();
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const started = performance.now();
    for (let i = 0; i < n; i++) run();
    samples.push(((performance.now() - started) * 1000) / n);
  }
  return median(samples);
}

const user: ScimResource = {
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', ENTERPRISE],
  id: '2819c223-7f76-453a-919d-413861904646',
  externalId: '701984',
  userName: 'bjensen@example.com',
  name: { formatted: 'Ms. Barbara J Jensen, III', familyName: 'Jensen', givenName: 'Barbara' },
  displayName: 'Babs Jensen',
  active: true,
  emails: [
    { value: 'bjensen@example.com', type: 'work', primary: true },
    { value: 'babs@jensen.org', type: 'home' },
  ],
  phoneNumbers: [{ value: '555-555-5555', type: 'work' }],
  [ENTERPRISE]: { employeeNumber: '701984', department: 'Tour Operations' },
  meta: { resourceType: 'User', created: '2010-01-23T04:56:22Z', lastModified: '2011-05-13T04:42:34Z', version: 'W/"1"' },
};

const members = Array.from({ length: 1000 }, (_, i) => ({ value: `member-${i}`, $ref: `https://example.com/v2/Users/member-${i}` }));
const group: ScimResource = {
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
  id: 'group-1',
  displayName: 'Everyone',
  members,
  meta: { resourceType: 'Group', created: '2010-01-23T04:56:22Z', lastModified: '2011-05-13T04:42:34Z', version: 'W/"1"' },
};

type Record_ = Record<string, unknown>;

interface Scenario {
  readonly name: string;
  readonly model: typeof userModel;
  readonly resource: ScimResource;
  readonly body: unknown;
  readonly hand: (r: ScimResource) => Record_;
  readonly n: number;
}

const scenarios: Scenario[] = [
  {
    name: 'Okta deactivate (path-less replace)',
    model: userModel,
    resource: user,
    body: { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: false } }] },
    hand: (r) => ({ ...r, active: false }),
    n: 5000,
  },
  {
    name: 'Entra user update (4 ops: string boolean, valuePath, sub-attribute, manager id)',
    model: userModel,
    resource: user,
    body: {
      schemas: [PATCH_OP],
      Operations: [
        { op: 'Replace', path: 'active', value: 'False' },
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'barbara@example.com' },
        { op: 'Replace', path: 'name.givenName', value: 'Barb' },
        { op: 'Add', path: `${ENTERPRISE}:manager`, value: 'boss-1' },
      ],
    },
    hand: (r) => {
      const emails = (r.emails as Record_[]).map((e) => (typeof e.type === 'string' && e.type.toLowerCase() === 'work' ? { ...e, value: 'barbara@example.com' } : e));
      return {
        ...r,
        active: false,
        emails,
        name: { ...(r.name as Record_), givenName: 'Barb' },
        [ENTERPRISE]: { ...(r[ENTERPRISE] as Record_), manager: { value: 'boss-1' } },
      };
    },
    n: 5000,
  },
  {
    name: 'Entra add member to a 1,000-member group',
    model: groupModel,
    resource: group,
    body: { schemas: [PATCH_OP], Operations: [{ op: 'Add', path: 'members', value: [{ value: 'new-member' }] }] },
    hand: (r) => {
      const list = r.members as Record_[];
      return list.some((m) => m.value === 'new-member') ? r : { ...r, members: [...list, { value: 'new-member' }] };
    },
    n: 500,
  },
  {
    name: 'Entra remove member (value array) from a 1,000-member group',
    model: groupModel,
    resource: group,
    body: { schemas: [PATCH_OP], Operations: [{ op: 'Remove', path: 'members', value: [{ value: 'member-500' }] }] },
    hand: (r) => ({ ...r, members: (r.members as Record_[]).filter((m) => m.value !== 'member-500') }),
    n: 500,
  },
];

const rows: Record<string, string | number>[] = [];
for (const s of scenarios) {
  const engineOnly = () => {
    const r = applyPatch(s.model, s.resource, s.body);
    if (!r.ok) throw new Error(r.error.detail);
    return r.value.resource;
  };
  const engine = () => {
    const patched = engineOnly();
    const v = validateResource(s.model, patched, { operation: 'patch', existing: s.resource });
    if (!v.ok) throw new Error(v.error.detail);
    return v.value;
  };
  const hand = () => {
    const v = validateResource(s.model, s.hand(s.resource), { operation: 'patch', existing: s.resource });
    if (!v.ok) throw new Error(v.error.detail);
    return v.value;
  };
  if (!isDeepStrictEqual(engine(), hand())) throw new Error(`${s.name}: the engine and the hand-written update disagree`);

  const samples = { engine: [] as number[], hand: [] as number[], engineOnly: [] as number[], handOnly: [] as number[] };
  for (let round = 0; round < 5; round++) {
    samples.engine.push(perCall(engine, s.n));
    samples.hand.push(perCall(hand, s.n));
    samples.engineOnly.push(perCall(engineOnly, s.n));
    samples.handOnly.push(perCall(() => s.hand(s.resource), s.n));
  }
  const e = median(samples.engine);
  const h = median(samples.hand);
  const eo = median(samples.engineOnly);
  const ho = median(samples.handOnly);
  rows.push({
    scenario: s.name,
    'PATCH+validate µs': +e.toFixed(1),
    'hand+validate µs': +h.toFixed(1),
    'ratio (with validation)': +(e / h).toFixed(2),
    'PATCH/s (with validation)': Math.round(1e6 / e),
    'applyPatch µs': +eo.toFixed(1),
    'hand µs': +ho.toFixed(2),
  });
}
console.log('\nPATCH throughput: engine (applyPatch + validateResource) vs hand-written update + validateResource');
console.table(rows);
