import { describe, expect, it } from 'vitest';
import { call, post, server, user } from './helpers.js';

describe('methods', () => {
  it('answers HEAD wherever GET is served, with the GET status and headers and no body (RFC 9110 §9.3.2)', async () => {
    const target = server();
    const created = await call(target, post('/Users', user('head')));
    const id = created.body['id'] as string;
    const head = await target.handle({ method: 'HEAD', path: `/Users/${id}` });
    expect(head.status).toBe(200);
    expect(head.body).toBeUndefined();
    expect(head.headers['ETag']).toBe(created.headers['ETag']);
    expect(head.headers['Content-Type']).toBe('application/scim+json');
    expect((await target.handle({ method: 'HEAD', path: '/Users' })).status).toBe(200);
    expect((await target.handle({ method: 'head', path: '/ServiceProviderConfig' })).status).toBe(200);
    const missing = await target.handle({ method: 'HEAD', path: '/Users/missing' });
    expect(missing.status).toBe(404);
    expect(missing.body).toBeUndefined();
    // Where GET is not served, HEAD is not either.
    const search = await target.handle({ method: 'HEAD', path: '/Users/.search' });
    expect(search.status).toBe(405);
    expect(search.body).toBeUndefined();
  });

  it('answers OPTIONS, TRACE and unknown methods with 405 and the Allow header', async () => {
    const target = server();
    for (const method of ['OPTIONS', 'TRACE', 'FOO', 'CONNECT']) {
      const reply = await call(target, { method, path: '/Users' });
      expect(reply.status, method).toBe(405);
      expect(reply.headers['Allow']).toBe('GET, POST');
      expect(reply.body['status']).toBe('405');
    }
  });
});
