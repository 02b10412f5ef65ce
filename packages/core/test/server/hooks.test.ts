import { describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../src/index.js';
import { call, post, server, user } from './helpers.js';

const patch = (value: unknown) => ({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', path: 'title', value }] });

describe('onChange', () => {
  it('reports every committed create, replace, patch and delete with before, after and principal', async () => {
    const events: ChangeEvent[] = [];
    const target = server({ onChange: (event) => void events.push(event), authenticate: () => ({ ok: true, principal: { client: 'okta' } }) });
    const created = await call(target, post('/Users', user('hooked')));
    const id = created.body['id'] as string;
    await call(target, { method: 'PUT', path: `/Users/${id}`, body: JSON.stringify(user('hooked', { title: 'a' })) });
    await call(target, { method: 'PATCH', path: `/Users/${id}`, body: JSON.stringify(patch('b')) });
    await call(target, { method: 'DELETE', path: `/Users/${id}` });
    expect(events.map((e) => e.operation)).toEqual(['create', 'replace', 'patch', 'delete']);
    expect(events.every((e) => e.resourceType === 'User' && e.id === id)).toBe(true);
    expect(events.every((e) => (e.principal as { client: string }).client === 'okta')).toBe(true);
    expect(events[0]?.before).toBeUndefined();
    expect(events[0]?.after?.['userName']).toBe('hooked');
    expect(events[1]?.before?.['title']).toBeUndefined();
    expect(events[1]?.after?.['title']).toBe('a');
    expect(events[2]?.before?.['title']).toBe('a');
    expect(events[2]?.after?.['title']).toBe('b');
    expect(events[3]?.before?.['title']).toBe('b');
    expect(events[3]?.after).toBeUndefined();
  });

  it('is not called for failed or unchanged writes', async () => {
    const events: ChangeEvent[] = [];
    const target = server({ onChange: (event) => void events.push(event) });
    const id = (await call(target, post('/Users', user('quiet')))).body['id'] as string;
    await call(target, post('/Users', user('QUIET')));
    await call(target, { method: 'PUT', path: `/Users/${id}`, body: JSON.stringify(user('quiet')) });
    await call(target, { method: 'PATCH', path: `/Users/${id}`, body: JSON.stringify(patch('x')), headers: { 'if-match': 'W/"nope"' } });
    await call(target, { method: 'DELETE', path: '/Users/unknown' });
    expect(events.map((e) => e.operation)).toEqual(['create']);
  });

  it('a throwing or rejecting hook is logged and does not change the response', async () => {
    const logged: string[] = [];
    let calls = 0;
    const target = server({
      logger: { log: (record) => void (record.level === 'error' && logged.push(record.message)) },
      onChange: () => (++calls % 2 ? Promise.reject(new Error('sync failed')) : (() => { throw new Error('sync threw'); })()),
    });
    const created = await call(target, post('/Users', user('robust')));
    expect(created.status).toBe(201);
    const deleted = await call(target, { method: 'DELETE', path: `/Users/${created.body['id']}` });
    expect(deleted.status).toBe(204);
    expect(logged).toHaveLength(2);
  });
});

describe('authenticate', () => {
  it('401 carries WWW-Authenticate from the advertised scheme, or the refusal challenge', async () => {
    const basic = server({
      authenticate: () => ({ ok: false }),
      authenticationSchemes: [{ type: 'httpbasic', name: 'HTTP Basic', description: 'Basic auth' }],
    });
    const reply = await call(basic, { method: 'GET', path: '/Users' });
    expect(reply.status).toBe(401);
    expect(reply.headers['WWW-Authenticate']).toBe('Basic realm="SCIM"');
    expect(reply.body).toEqual({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '401', detail: 'Authentication required' });
    const custom = server({ authenticate: () => ({ ok: false, challenge: 'Bearer error="invalid_token"', detail: 'Token expired' }) });
    const second = await call(custom, { method: 'GET', path: '/Users' });
    expect(second.headers['WWW-Authenticate']).toBe('Bearer error="invalid_token"');
    expect(second.body['detail']).toBe('Token expired');
  });

  it('403 for an authenticated caller that is refused', async () => {
    const target = server({ authenticate: async () => ({ ok: false, status: 403, detail: 'Read-only client' }) });
    const reply = await call(target, post('/Users', user('x')));
    expect(reply.status).toBe(403);
    expect(reply.headers['WWW-Authenticate']).toBeUndefined();
    expect(reply.body['detail']).toBe('Read-only client');
  });

  it('fails closed on a hook that returns garbage: only a literal ok: true lets the caller in', async () => {
    for (const garbage of [{ ok: 'true' }, { ok: 1 }, 'yes', 42, {}, null, undefined]) {
      const logged: unknown[] = [];
      const target = server({ authenticate: () => garbage as never, logger: { log: (record) => void (record.level === 'error' && logged.push(record.error)) } });
      const reply = await call(target, { method: 'GET', path: '/Users' });
      expect(reply.status).toBe(500);
      expect(reply.body['detail']).toBe('Internal server error');
      expect(logged).toHaveLength(1);
    }
  });

  it('never lets a refusal put a non-string detail or a broken header value in the response', async () => {
    const target = server({ authenticate: () => ({ ok: false, detail: 42, challenge: 'Bearer\r\nSet-Cookie: x=1' }) as never });
    const reply = await call(target, { method: 'GET', path: '/Users' });
    expect(reply.status).toBe(401);
    expect(reply.body['detail']).toBe('Authentication required');
    expect(reply.headers['WWW-Authenticate']).toBe('Bearer realm="SCIM"');
  });

  it('sees the request and runs before routing and before the body is parsed: a refusal tells nothing of the routes', async () => {
    const seen: string[] = [];
    const target = server({ authenticate: (request) => (seen.push(request.path), { ok: false }) });
    // Routing would answer 404, 405, 501 and 404: an unauthenticated client gets 401 everywhere.
    for (const [method, path] of [['GET', '/Nope'], ['DELETE', '/Users'], ['POST', '/Bulk'], ['GET', '/Users/a/b']] as const) {
      const reply = await call(target, { method, path });
      expect(reply.status, `${method} ${path}`).toBe(401);
      expect(reply.headers['Allow']).toBeUndefined();
    }
    expect((await call(target, { method: 'POST', path: '/Users', body: '{not json' })).status).toBe(401);
    expect(seen).toEqual(['/Nope', '/Users', '/Bulk', '/Users/a/b', '/Users']);
  });

  it('routes once the caller is in: 404 and 405 for an authenticated client', async () => {
    const target = server({ authenticate: () => ({ ok: true }) });
    expect((await call(target, { method: 'GET', path: '/Nope' })).status).toBe(404);
    expect((await call(target, { method: 'DELETE', path: '/Users' })).status).toBe(405);
  });
});
