import { describe, expect, it } from 'vitest';
import { call, server } from './helpers.js';

describe('limits.maxQueryParameters', () => {
  it('refuses more query values than the limit, repeats counted, with 400 invalidValue naming it', async () => {
    const target = server();
    const attributes = Array.from({ length: 101 }, (_, i) => `a${i}`);
    const reply = await call(target, { method: 'GET', path: '/Users', query: { attributes } });
    expect(reply.status).toBe(400);
    expect(reply.body['scimType']).toBe('invalidValue');
    expect(reply.body['detail']).toContain('limits.maxQueryParameters');
    expect((await call(target, { method: 'GET', path: '/Users', query: { attributes: attributes.slice(0, 100) } })).status).toBe(200);
  });

  it('is configurable, and checked only once the caller is authenticated', async () => {
    const query = { a: '1', b: ['2', '3'] };
    expect((await call(server({ limits: { maxQueryParameters: 2 } }), { method: 'GET', path: '/Users', query })).status).toBe(400);
    expect((await call(server({ limits: { maxQueryParameters: 3 } }), { method: 'GET', path: '/Users', query })).status).toBe(200);
    const guarded = server({ limits: { maxQueryParameters: 2 }, authenticate: () => ({ ok: false }) });
    expect((await call(guarded, { method: 'GET', path: '/Users', query })).status).toBe(401);
  });
});
