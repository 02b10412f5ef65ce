import { describe, expect, it } from 'vitest';
import {
  createMemoryStore,
  createScimServer,
  groupResourceType,
  MemoryOutbox,
  userResourceType,
  type ScimEvent,
  type ScimServerConfig,
  type ScimStore,
} from '../../src/index.js';
import { call, post, user } from '../server/helpers.js';

const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const patch = (...Operations: unknown[]) => ({ method: 'PATCH', path: '', body: JSON.stringify({ schemas: [PATCH_OP], Operations }) });

function setup(overrides: Partial<ScimServerConfig> = {}, store: ScimStore = createMemoryStore()) {
  const target = createScimServer({
    resourceTypes: [userResourceType, groupResourceType, { name: 'Device', endpoint: '/Devices', schema: 'urn:example:Device' }],
    schemas: [{ id: 'urn:example:Device', name: 'Device', attributes: [{ name: 'label', type: 'string' }] }],
    store,
    events: {},
    bulk: {},
    authenticate: () => ({ ok: true, principal: { sub: 'okta-client' } }),
    logger: { log: () => undefined },
    ...overrides,
  });
  return { target, events: (): ScimEvent[] => (store.outbox as MemoryOutbox).events() };
}

describe('events derived from committed writes', () => {
  it('user.created, user.updated with the changed paths, deactivated, reactivated, deleted', async () => {
    const { target, events } = setup();
    const created = await call(target, post('/Users', user('ada', { name: { givenName: 'Ada' } }), { headers: { 'content-type': 'application/scim+json', 'x-request-id': 'req-1' } }));
    const id = created.body['id'] as string;
    await call(target, { ...patch({ op: 'replace', path: 'name.givenName', value: 'Augusta' }, { op: 'add', path: 'title', value: 'Countess' }), path: `/Users/${id}` });
    await call(target, { ...patch({ op: 'replace', path: 'active', value: false }), path: `/Users/${id}` });
    await call(target, { method: 'PUT', path: `/Users/${id}`, body: JSON.stringify(user('ada', { active: true })) });
    await call(target, { method: 'DELETE', path: `/Users/${id}` });
    const list = events();
    expect(list.map((e) => e.type)).toEqual(['user.created', 'user.updated', 'user.updated', 'user.deactivated', 'user.updated', 'user.reactivated', 'user.deleted']);
    expect(list[0]).not.toHaveProperty('tenant');
    expect(list[0]).toMatchObject({ resourceType: 'User', resourceId: id, version: created.body['meta'].version, requestId: 'req-1', principal: 'okta-client' });
    expect(list[1]?.attributes).toEqual(['name.givenName', 'title']);
    expect(list[2]?.attributes).toEqual(['active']);
    expect(list[4]?.attributes).toEqual(expect.arrayContaining(['name', 'title', 'active']));
    expect(new Set(list.map((e) => e.id)).size).toBe(list.length);
    for (const event of list) expect(Number.isNaN(Date.parse(event.time))).toBe(false);
    expect(list[1]?.resource).toBeUndefined();
  });

  it('group members added and removed once per request, group.updated for the rest, cascade on delete', async () => {
    const { target, events } = setup();
    const a = (await call(target, post('/Users', user('a')))).body['id'] as string;
    const b = (await call(target, post('/Users', user('b')))).body['id'] as string;
    const g = (await call(target, post('/Groups', { schemas: [GROUP], displayName: 'team' }))).body['id'] as string;
    await call(target, { ...patch({ op: 'add', path: 'members', value: [{ value: a }, { value: b }] }), path: `/Groups/${g}` });
    await call(target, { ...patch({ op: 'remove', path: `members[value eq "${a}"]` }, { op: 'replace', path: 'displayName', value: 'squad' }), path: `/Groups/${g}` });
    await call(target, { method: 'DELETE', path: `/Users/${b}` });
    await call(target, { method: 'DELETE', path: `/Groups/${g}` });
    const list = events().slice(3);
    expect(list.map((e) => e.type)).toEqual(['group.members_added', 'group.updated', 'group.members_removed', 'user.deleted', 'group.members_removed', 'group.deleted']);
    expect(list[0]?.members).toEqual([a, b]);
    expect(list[1]?.attributes).toEqual(['displayName']);
    expect(list[2]?.members).toEqual([a]);
    expect(list[4]).toMatchObject({ resourceType: 'Group', resourceId: g, members: [b] });
  });

  it('custom resource types get <name>.created|updated|deleted; payload resource carries the resource', async () => {
    const { target, events } = setup({ events: { payload: 'resource' } });
    const id = (await call(target, post('/Devices', { schemas: ['urn:example:Device'], label: 'x' }))).body['id'] as string;
    await call(target, { method: 'PUT', path: `/Devices/${id}`, body: JSON.stringify({ schemas: ['urn:example:Device'], label: 'y' }) });
    await call(target, { method: 'DELETE', path: `/Devices/${id}` });
    const list = events();
    expect(list.map((e) => e.type)).toEqual(['device.created', 'device.updated', 'device.deleted']);
    expect(list[1]?.resource?.['label']).toBe('y');
    expect(list[1]?.attributes).toEqual(['label']);
  });

  it('Bulk: one event per operation', async () => {
    const { target, events } = setup();
    const reply = await call(
      target,
      post('/Bulk', {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:BulkRequest'],
        Operations: [
          { method: 'POST', path: '/Users', bulkId: 'u1', data: user('bulk1') },
          { method: 'POST', path: '/Users', bulkId: 'u2', data: user('bulk2') },
          { method: 'POST', path: '/Users', bulkId: 'u3', data: user('bulk1') },
        ],
      }),
    );
    expect(reply.status).toBe(200);
    expect(events().map((e) => e.type)).toEqual(['user.created', 'user.created']);
  });

  it('refused, failed and unchanged writes produce none', async () => {
    let refuse = false;
    const { target, events } = setup({ beforeWrite: () => (refuse ? { status: 403, detail: 'no' } : undefined) });
    const id = (await call(target, post('/Users', user('kept')))).body['id'] as string;
    refuse = true;
    expect((await call(target, post('/Users', user('refused')))).status).toBe(403);
    expect((await call(target, { ...patch({ op: 'add', path: 'title', value: 'x' }), path: `/Users/${id}` })).status).toBe(403);
    expect((await call(target, { method: 'DELETE', path: `/Users/${id}` })).status).toBe(403);
    refuse = false;
    expect((await call(target, post('/Users', user('KEPT')))).status).toBe(409);
    const stale = await call(target, { ...patch({ op: 'add', path: 'title', value: 'x' }), path: `/Users/${id}`, headers: { 'if-match': 'W/"stale"' } });
    expect(stale.status).toBe(412);
    expect((await call(target, { method: 'PUT', path: `/Users/${id}`, body: JSON.stringify(user('kept')) })).status).toBe(200);
    expect(events().map((e) => e.type)).toEqual(['user.created']);
  });

  it('a write whose store transaction fails produces no event', async () => {
    const inner = createMemoryStore();
    const failing: ScimStore = { ...inner, capabilities: inner.capabilities!, outbox: inner.outbox!, replace: async () => { throw new Error('connection lost'); } };
    const { target } = setup({}, failing);
    const id = (await call(target, post('/Users', user('rolled')))).body['id'] as string;
    expect((await call(target, { ...patch({ op: 'add', path: 'title', value: 'x' }), path: `/Users/${id}` })).status).toBe(500);
    expect((inner.outbox as MemoryOutbox).events().map((e) => e.type)).toEqual(['user.created']);
  });

  it('a store without an outbox is refused at start-up when events are on', () => {
    const inner = createMemoryStore();
    const plain: ScimStore = { create: inner.create, get: inner.get, replace: inner.replace, delete: inner.delete, query: inner.query };
    expect(() => createScimServer({ resourceTypes: [userResourceType], store: plain, events: {} })).toThrow(/capabilities\.events/);
  });
});
