import { describe, expect, it } from 'vitest';
import { ScimException, scimError, type BeforeWriteEvent } from '../../../src/index.js';
import { client, groupsServer } from './membership-helpers.js';

describe('beforeWrite', () => {
  it('sees every write after validation with the candidate, the stored resource and the principal', async () => {
    const events: BeforeWriteEvent[] = [];
    const c = client(groupsServer({ beforeWrite: (event) => void events.push(event), authenticate: () => ({ ok: true, principal: 'okta' }) }));
    const alice = await c.user('alice');
    await c.send('PUT', `/Users/${alice}`, { userName: 'alice', title: 'Boss' });
    await c.patch(`/Users/${alice}`, { op: 'replace', path: 'title', value: 'Chief' });
    await c.send('DELETE', `/Users/${alice}`);
    await c.send('POST', '/Users', { userName: 42 });
    expect(events.map((e) => e.operation)).toEqual(['create', 'replace', 'patch', 'delete']);
    expect(events.every((e) => e.resourceType === 'User' && e.id === alice && e.principal === 'okta')).toBe(true);
    expect(events[0]?.resource?.['userName']).toBe('alice');
    expect(events[0]?.existing).toBeUndefined();
    expect(events[1]?.existing?.['title']).toBeUndefined();
    expect(events[1]?.resource?.['title']).toBe('Boss');
    expect(events[2]?.resource?.['title']).toBe('Chief');
    expect(events[3]?.resource).toBeUndefined();
    expect(events[3]?.existing?.['title']).toBe('Chief');
  });

  it('a returned or thrown SCIM error is the answer as is, and nothing is stored', async () => {
    const refuse = scimError('invalidValue', 'Administrators is reserved');
    const c = client(
      groupsServer({
        beforeWrite: (event) => {
          if (event.resource?.['displayName'] === 'Administrators') return refuse;
          if (event.operation === 'delete') throw new ScimException({ status: 403, detail: 'Groups are never deleted here' });
          return undefined;
        },
      }),
    );
    const refused = await c.send('POST', '/Groups', { displayName: 'Administrators' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '400', scimType: 'invalidValue', detail: 'Administrators is reserved' });
    expect((await c.send('GET', '/Groups')).body['totalResults']).toBe(0);
    const id = await c.group('Staff');
    expect((await c.patch(`/Groups/${id}`, { op: 'replace', path: 'displayName', value: 'Administrators' })).status).toBe(400);
    expect((await c.send('PUT', `/Groups/${id}`, { displayName: 'Administrators' })).status).toBe(400);
    const deleted = await c.send('DELETE', `/Groups/${id}`);
    expect(deleted.status).toBe(403);
    expect(deleted.body['detail']).toBe('Groups are never deleted here');
    const stored = await c.send('GET', `/Groups/${id}`);
    expect(stored.body['displayName']).toBe('Staff');
    expect(stored.body['meta'].version).toBe('W/"1"');
  });

  it('a hook that throws something else, or returns garbage, is a 500 reported to the logger', async () => {
    const logged: string[] = [];
    for (const hook of [() => { throw new Error('boom'); }, () => ({ status: 'no' }) as never, () => ({ status: 200, detail: 'fine?' }) as never]) {
      const c = client(groupsServer({ beforeWrite: hook, logger: { log: (record) => void (record.level === 'error' && logged.push(record.message)) } }));
      const reply = await c.send('POST', '/Users', { userName: 'x' });
      expect(reply.status).toBe(500);
      expect((await c.send('GET', '/Users')).body['totalResults']).toBe(0);
    }
    expect(logged).toHaveLength(3);
  });
});

describe('notFoundDetail', () => {
  it('names the resource by default, is empty or custom when configured', async () => {
    const named = await client(groupsServer()).send('GET', '/Users/2819c223');
    expect(named.status).toBe(404);
    expect(named.body['detail']).toBe('Resource 2819c223 not found');
    expect((await client(groupsServer({ notFoundDetail: 'empty' })).send('DELETE', '/Groups/x')).body['detail']).toBe('');
    const custom = client(groupsServer({ notFoundDetail: (type, id) => `No ${type} ${id}` }));
    expect((await custom.patch('/Groups/g1', { op: 'replace', path: 'displayName', value: 'x' })).body['detail']).toBe('No Group g1');
    expect((await custom.send('PUT', '/Users/u1', { userName: 'x' })).body['detail']).toBe('No User u1');
  });

  it('refuses an invalid option at start-up', () => {
    expect(() => groupsServer({ notFoundDetail: 'loud' as never })).toThrow(TypeError);
    expect(() => groupsServer({ membership: { danglingReferences: 'maybe' as never } })).toThrow(TypeError);
  });
});
