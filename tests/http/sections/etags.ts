import { describe, expect, it } from 'vitest';
import { patchBody, userBody } from '../support/fixtures.js';
import { expectError, expectEtagMatchesBody } from '../support/expect-scim.js';
import type { Current } from '../support/service-under-test.js';

/** examples/seed-service/README.md rules 4 and 5 of "User endpoints"; docs/concepts/etags-and-concurrency.md, the order of checks in docs/errors.md. */
export function describeEtags(service: Current): void {
  const create = async (userName: string) => {
    const reply = await service().client.post('/Users', userBody(userName));
    expect(reply.status).toBe(201);
    return reply.body as { id: string; meta: { version: string; lastModified: string } };
  };

  describe('If-Match on PUT, PATCH and DELETE', () => {
    it('passes when absent, "*", the current tag, a list holding it, or the tag without W/', async () => {
      const { client } = service();
      const user = await create('matcher');
      let version = user.meta.version;
      const headers = (value: string) => ({ headers: { 'If-Match': value } });

      let reply = await client.patch(`/Users/${user.id}`, patchBody({ op: 'replace', path: 'title', value: 'a' }), headers(version));
      expect(reply.status).toBe(200);
      expectEtagMatchesBody(reply);
      expect(reply.body.meta.version).not.toBe(version);
      version = reply.body.meta.version;

      reply = await client.patch(`/Users/${user.id}`, patchBody({ op: 'replace', path: 'title', value: 'b' }), headers('*'));
      expect(reply.status).toBe(200);
      version = reply.body.meta.version;

      reply = await client.put(`/Users/${user.id}`, userBody('matcher', { title: 'c' }), headers(`W/"nope", ${version} , "other"`));
      expect(reply.status).toBe(200);
      version = reply.body.meta.version;

      reply = await client.put(`/Users/${user.id}`, userBody('matcher', { title: 'd' }), headers(version.slice(2)));
      expect(reply.status).toBe(200);
      version = reply.body.meta.version;

      reply = await client.delete(`/Users/${user.id}`, headers(version));
      expect(reply.status).toBe(204);
    });

    it('answers 412 "ETag mismatch" for a stale tag and changes nothing', async () => {
      const { client } = service();
      const user = await create('stale');
      const fresh = await client.patch(`/Users/${user.id}`, patchBody({ op: 'replace', path: 'title', value: 'new' }));
      const stale = { headers: { 'If-Match': user.meta.version } };

      expectError(await client.put(`/Users/${user.id}`, userBody('stale', { title: 'lost' }), stale), 412, undefined, 'ETag mismatch');
      expectError(await client.patch(`/Users/${user.id}`, patchBody({ op: 'replace', path: 'title', value: 'lost' }), stale), 412, undefined, 'ETag mismatch');
      expectError(await client.delete(`/Users/${user.id}`, stale), 412, undefined, 'ETag mismatch');
      expectError(await client.delete(`/Users/${user.id}`, { headers: { 'If-Match': 'W/"x", W/"y"' } }), 412, undefined, 'ETag mismatch');

      const read = await client.get(`/Users/${user.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(fresh.body);
    });

    it('checks in order: unparseable JSON, lookup (404), If-Match (412), body validation (400)', async () => {
      const { client } = service();
      const user = await create('order');
      const bad = { 'If-Match': 'W/"nope"' };
      const garbage = { raw: '{"schemas":', headers: { ...bad, 'Content-Type': 'application/scim+json' } };
      expectError(await client.send('PUT', '/Users/unknown-id', garbage), 400, 'invalidSyntax');
      expectError(await client.send('PATCH', `/Users/${user.id}`, garbage), 400, 'invalidSyntax');
      expectError(await client.put('/Users/unknown-id', { userName: 42 }, { headers: bad }), 404, undefined, '');
      expectError(await client.put(`/Users/${user.id}`, { userName: 42 }, { headers: bad }), 412, undefined, 'ETag mismatch');
      expectError(await client.patch(`/Users/${user.id}`, patchBody({ op: 'bogus' }), { headers: bad }), 412, undefined, 'ETag mismatch');
      expectError(await client.delete('/Users/unknown-id', { headers: bad }), 404, undefined, '');
      expectError(await client.put(`/Users/${user.id}`, { userName: 42 }), 400, 'invalidValue');
    });
  });

  describe('If-None-Match on GET /Users/<id>', () => {
    it('answers 304 with an empty body when the list names the current tag (or is "*")', async () => {
      const { client } = service();
      const user = await create('cached');
      for (const value of [user.meta.version, `W/"old", ${user.meta.version}`, user.meta.version.slice(2), '*']) {
        const reply = await client.get(`/Users/${user.id}`, { headers: { 'If-None-Match': value } });
        expect(reply.status, value).toBe(304);
        expect(reply.text).toBe('');
        expect(reply.headers.get('etag')).toBe(user.meta.version);
      }
    });

    it('answers 200 with the resource when the tag is stale', async () => {
      const { client } = service();
      const user = await create('changed');
      await client.patch(`/Users/${user.id}`, patchBody({ op: 'replace', path: 'title', value: 'x' }));
      const reply = await client.get(`/Users/${user.id}`, { headers: { 'If-None-Match': user.meta.version } });
      expect(reply.status).toBe(200);
      expectEtagMatchesBody(reply);
      expect(reply.body.title).toBe('x');
    });
  });

  describe('versions', () => {
    it('are weak tags that change on every change and never repeat', async () => {
      const { client } = service();
      const user = await create('versions');
      const seen = new Set([user.meta.version]);
      for (let i = 0; i < 5; i++) {
        const reply = await client.patch(`/Users/${user.id}`, patchBody({ op: 'replace', path: 'title', value: `t${i}` }));
        expect(reply.body.meta.version).toMatch(/^W\/"/);
        expect(seen.has(reply.body.meta.version)).toBe(false);
        seen.add(reply.body.meta.version);
      }
    });
  });
}
