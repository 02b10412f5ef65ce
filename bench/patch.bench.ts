/**
 * PATCH part (`npm run bench -- patch`): six real-client requests applied by
 * - scimkit as the server runs it: `applyPatch`, then `validateResource` of what changed;
 * - scimkit's engine alone (`applyPatch`);
 * - scim-patch (schema-blind; `mutateDocument: false`, so it copies like the others);
 * - SCIMMY (`PatchOp.apply` on a `Schemas.User`/`Group` instance: schema-aware, async);
 * - a hand-written immutable update (the limit).
 * Every contender's result is checked against the hand-written one first (meta aside); a wrong
 * result is reported, not timed away. Ops/s are medians of interleaved runs.
 */
import { isDeepStrictEqual } from 'node:util';
import SCIMMY from 'scimmy';
import { scimPatch, type ScimPatchOperation } from 'scim-patch';
import { applyPatch, validateResource } from '../packages/core/src/engine/index.js';
import { createSchemaRegistry, builtinResourceTypes, type ResourceModel, type ScimResource } from '../packages/core/src/index.js';
import { check, now, opsPerSecond, round, table, writeResult, type Measure } from './lib/harness.js';
import { ENTERPRISE, groupWith, PATCH_OP, typicalUser } from './lib/users.js';

const registry = createSchemaRegistry({ resourceTypes: builtinResourceTypes });
const userModel = registry.resourceType('User') as ResourceModel;
const groupModel = registry.resourceType('Group') as ResourceModel;
SCIMMY.Schemas.User.extend(SCIMMY.Schemas.EnterpriseUser as never, false);

type Json = Record<string, unknown>;

interface Case {
  readonly name: string;
  readonly model: ResourceModel;
  readonly resource: ScimResource;
  readonly operations: Json[];
  readonly hand: (r: ScimResource) => Json;
  /** Peers are left out where they cannot express the request. */
  readonly peers?: boolean;
}

const user = typicalUser();
const group = groupWith(1000);
const bigGroup = groupWith(100_000);

const CASES: Case[] = [
  {
    name: 'replace displayName',
    model: userModel,
    resource: user,
    operations: [{ op: 'replace', path: 'displayName', value: 'Barbara Jensen' }],
    hand: (r) => ({ ...r, displayName: 'Barbara Jensen' }),
  },
  {
    name: 'add an email',
    model: userModel,
    resource: user,
    operations: [{ op: 'add', path: 'emails', value: [{ value: 'barbara@example.org', type: 'other' }] }],
    hand: (r) => ({ ...r, emails: [...(r.emails as Json[]), { value: 'barbara@example.org', type: 'other' }] }),
  },
  {
    name: 'valuePath replace emails[type eq "work"].value',
    model: userModel,
    resource: user,
    operations: [{ op: 'replace', path: 'emails[type eq "work"].value', value: 'barbara@example.com' }],
    hand: (r) => ({ ...r, emails: (r.emails as Json[]).map((e) => (e.type === 'work' ? { ...e, value: 'barbara@example.com' } : e)) }),
  },
  {
    name: 'remove a member (1,000-member group)',
    model: groupModel,
    resource: group,
    operations: [{ op: 'remove', path: 'members[value eq "member-500"]' }],
    hand: (r) => ({ ...r, members: (r.members as Json[]).filter((m) => m.value !== 'member-500') }),
  },
  {
    name: 'path-less replace {active, displayName}',
    model: userModel,
    resource: user,
    operations: [{ op: 'replace', value: { active: false, displayName: 'Babs' } }],
    hand: (r) => ({ ...r, active: false, displayName: 'Babs' }),
  },
  {
    name: 'URN attribute enterprise:department',
    model: userModel,
    resource: user,
    operations: [{ op: 'replace', path: `${ENTERPRISE}:department`, value: 'Sales' }],
    hand: (r) => ({ ...r, [ENTERPRISE]: { ...(r[ENTERPRISE] as Json), department: 'Sales' } }),
  },
  {
    name: 'add a member (100,000-member group)',
    model: groupModel,
    resource: bigGroup,
    operations: [{ op: 'add', path: 'members', value: [{ value: 'new-member' }] }],
    hand: (r) => ({ ...r, members: [...(r.members as Json[]), { value: 'new-member' }] }),
    peers: false,
  },
];

/** What is compared: the resource without `meta` (SCIMMY rewrites its dates), as JSON. */
function comparable(resource: unknown): unknown {
  const { meta: _meta, ...rest } = JSON.parse(JSON.stringify(resource)) as Json;
  return rest;
}

function scimkit(c: Case): () => unknown {
  const body = { schemas: [PATCH_OP], Operations: c.operations };
  return () => {
    const patched = applyPatch(c.model, c.resource, body);
    if (!patched.ok) throw new Error(patched.error.detail);
    const { resource, touched, changes } = patched.value;
    const valid = validateResource(c.model, resource, { operation: 'patch', existing: c.resource, touched, changes });
    if (!valid.ok) throw new Error(valid.error.detail);
    return valid.value;
  };
}

function engineOnly(c: Case): () => unknown {
  const body = { schemas: [PATCH_OP], Operations: c.operations };
  return () => {
    const patched = applyPatch(c.model, c.resource, body);
    if (!patched.ok) throw new Error(patched.error.detail);
    return patched.value.resource;
  };
}

function scimPatchPeer(c: Case): () => unknown {
  const operations = c.operations as unknown as ScimPatchOperation[];
  return () => scimPatch(c.resource as never, operations, { mutateDocument: false, treatMissingAsAdd: true });
}

function scimmyPeer(c: Case): () => Promise<unknown> {
  const Schema = c.model === groupModel ? SCIMMY.Schemas.Group : SCIMMY.Schemas.User;
  return async () => {
    const instance = new Schema(c.resource, 'both');
    return new SCIMMY.Messages.PatchOp({ schemas: [PATCH_OP], Operations: c.operations as never }).apply(instance);
  };
}

/** ops/s of an async contender: sequential awaited calls, median of interleaved runs. */
async function asyncOpsPerSecond(run: () => Promise<unknown>, runs = 5, ms = 200): Promise<Measure> {
  const samples: number[] = [];
  for (let i = 0; i < 20; i++) await run();
  for (let r = 0; r < runs; r++) {
    let calls = 0;
    const started = now();
    while (now() - started < ms) {
      await run();
      calls++;
    }
    samples.push((calls / (now() - started)) * 1000);
  }
  const sorted = [...samples].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] as number;
  return { median, min: sorted[0] as number, max: sorted[sorted.length - 1] as number, spread: ((sorted[sorted.length - 1] as number) - (sorted[0] as number)) / median, runs: samples };
}

const rows: Json[] = [];
const results: Json[] = [];
for (const c of CASES) {
  const expected = comparable(c.hand(c.resource));
  const contenders: Record<string, () => unknown> = {
    'scimkit + validation': scimkit(c),
    'scimkit applyPatch': engineOnly(c),
    'hand-written': () => c.hand(c.resource),
  };
  if (c.peers !== false) contenders['scim-patch'] = scimPatchPeer(c);
  const correct: Record<string, boolean> = {};
  for (const [name, run] of Object.entries(contenders)) correct[name] = isDeepStrictEqual(comparable(run()), expected);
  check(correct['scimkit + validation'] === true, `${c.name}: scimkit's result differs from the hand-written update`);
  const measured: Record<string, Measure> = opsPerSecond(contenders);
  if (c.peers !== false) {
    const peer = scimmyPeer(c);
    correct['scimmy'] = isDeepStrictEqual(comparable(await peer()), expected);
    measured['scimmy'] = await asyncOpsPerSecond(peer);
  }
  const ours = (measured['scimkit + validation'] as Measure).median;
  const row: Json = { case: c.name };
  for (const [name, m] of Object.entries(measured)) row[`${name} ops/s`] = `${round(m.median)}${correct[name] === false ? ' (WRONG)' : ''}`;
  const sp = measured['scim-patch'];
  if (sp !== undefined) row['scimkit ÷ scim-patch'] = round(ours / sp.median);
  row['scimkit ÷ hand'] = round(ours / (measured['hand-written'] as Measure).median);
  rows.push(row);
  results.push({ case: c.name, operations: c.operations, opsPerSecond: measured, correct });
}
table('PATCH: operations per second (median of interleaved runs; scimkit validates the result, as the server does)', rows);
writeResult('patch', { cases: results });
