import { describe, expect, it } from 'vitest';
import { createMemoryStore, createScimServer, groupResourceType, userResourceType, type RecordedRequest } from '../../src/index.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const BULK = 'urn:ietf:params:scim:api:messages:2.0:BulkRequest';

function recordingServer() {
  const recorded: RecordedRequest[] = [];
  const scim = createScimServer({ resourceTypes: [userResourceType, groupResourceType], store: createMemoryStore(), bulk: {}, requestLog: { record: (r) => recorded.push(r) } });
  return { scim, recorded };
}

describe('config.requestLog', () => {
  it('receives every answered request with its answer, endpoint and committed changes', async () => {
    const { scim, recorded } = recordingServer();
    const created = await scim.handle({ method: 'POST', path: '/Users', headers: { 'x-request-id': 'req-1' }, body: JSON.stringify({ schemas: [USER], userName: 'bjensen' }) });
    const id = (JSON.parse(created.body ?? '{}') as { id: string }).id;
    await scim.handle({ method: 'HEAD', path: `/Users/${id}` });
    await scim.handle({ method: 'DELETE', path: `/Users/${id}` });
    await scim.handle({ method: 'GET', path: '/Nope' });
    expect(recorded.map((r) => [r.request.method, r.response.status, r.operation, r.changes.map((c) => c.operation)])).toEqual([
      ['POST', 201, 'create', ['create']],
      ['HEAD', 200, 'read', []],
      ['DELETE', 204, 'delete', ['delete']],
      ['GET', 404, undefined, []],
    ]);
    const [post, head] = recorded;
    expect(post).toMatchObject({ requestId: 'req-1', path: '/Users', resourceType: 'User', response: { body: created.body } });
    expect(post?.changes[0]?.after?.['userName']).toBe('bjensen');
    expect(head?.response.body).toContain('bjensen'); // the recorder sees the body a HEAD answer leaves out
    expect(post?.durationMs).toBeGreaterThan(0);
    expect(Math.abs((post?.startedAt ?? 0) - Date.now())).toBeLessThan(5_000);
    expect(post?.compatibility.stringBooleans).toBe(true);
  });

  it('collects the changes of every Bulk operation into the Bulk request', async () => {
    const { scim, recorded } = recordingServer();
    const body = { schemas: [BULK], Operations: [1, 2].map((n) => ({ method: 'POST', path: '/Users', bulkId: `u${n}`, data: { schemas: [USER], userName: `user${n}` } })) };
    const answer = await scim.handle({ method: 'POST', path: '/Bulk', body: JSON.stringify(body) });
    expect(answer.status).toBe(200);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]?.changes.map((c) => c.after?.['userName'])).toEqual(['user1', 'user2']);
  });
});
