import { describe, expect, it } from 'vitest';
import { call, server, user } from './helpers.js';

const USERS = { method: 'POST', path: '/Users' } as const;
const json = JSON.stringify(user('body-test'));

describe('request bodies (RFC 7644 §3.8)', () => {
  it('refuses a body a framework already parsed when its Content-Type is not JSON (a form body)', async () => {
    const target = server();
    // What express.urlencoded() or koa-body leave for `userName=x&active=true`.
    const form = await call(target, { ...USERS, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: { userName: 'x', active: 'true' } });
    expect(form.status).toBe(415);
    expect(form.body.detail).toContain('application/x-www-form-urlencoded');
    const multipart = await call(target, { ...USERS, headers: { 'Content-Type': 'multipart/form-data; boundary=x' }, body: { userName: 'y' } });
    expect(multipart.status).toBe(415);
    expect((await call(target, { method: 'GET', path: '/Users' })).body.totalResults).toBe(0);
    // A parsed JSON body, with a JSON type or none, is still taken as it is.
    expect((await call(target, { ...USERS, headers: { 'content-type': 'application/json' }, body: user('parsed') })).status).toBe(201);
    expect((await call(target, { ...USERS, body: user('untyped') })).status).toBe(201);
  });

  it('refuses bytes that are not valid UTF-8 with 400 invalidSyntax instead of storing U+FFFD', async () => {
    const target = server();
    const bytes = new Uint8Array([...new TextEncoder().encode('{"userName":"bad'), 0xff, 0xfe, ...new TextEncoder().encode('"}')]);
    const reply = await call(target, { ...USERS, headers: { 'content-type': 'application/scim+json' }, body: bytes });
    expect(reply.status).toBe(400);
    expect(reply.body.scimType).toBe('invalidSyntax');
    expect(reply.body.detail).toContain('UTF-8');
    const truncated = new Uint8Array([...new TextEncoder().encode('{"userName":"'), 0xe0, 0xa4, ...new TextEncoder().encode('"}')]);
    expect((await call(target, { ...USERS, body: truncated })).body.scimType).toBe('invalidSyntax');
    expect((await call(target, { method: 'GET', path: '/Users' })).body.totalResults).toBe(0);
  });

  it('decodes bytes in the charset the client names, and refuses an unknown charset with 415', async () => {
    const target = server();
    const latin1 = new Uint8Array([...new TextEncoder().encode('{"userName":"jos'), 0xe9, ...new TextEncoder().encode('"}')]);
    const created = await call(target, { ...USERS, headers: { 'content-type': 'application/scim+json; charset=ISO-8859-1' }, body: latin1 });
    expect(created.status).toBe(201);
    expect(created.body.userName).toBe('josé');
    const quoted = await call(target, { ...USERS, headers: { 'content-type': 'application/json;charset="utf-8"' }, body: new TextEncoder().encode(json) });
    expect(quoted.status).toBe(201);
    const unknown = await call(target, { ...USERS, headers: { 'content-type': 'application/scim+json; charset=klingon' }, body: new TextEncoder().encode(json) });
    expect(unknown.status).toBe(415);
    expect(unknown.body.detail).toContain('klingon');
  });

  it('takes a body given as an ArrayBuffer or a DataView as bytes', async () => {
    const target = server();
    const bytes = new TextEncoder().encode(JSON.stringify(user('buffer')));
    expect((await call(target, { ...USERS, body: bytes.buffer })).status).toBe(201);
    const view = new TextEncoder().encode(JSON.stringify(user('view')));
    expect((await call(target, { ...USERS, body: new DataView(view.buffer) })).status).toBe(201);
  });

  it('refuses a lone surrogate in a value or a member name, in text or in a parsed body', async () => {
    const target = server();
    for (const body of ['{"userName":"sur\\ud800x"}', '{"userName":"a","name":{"givenName":"\\udc00"}}', '{"userName":"b","\\ud800":1}', { userName: 'c', emails: [{ value: '\ud800' }] }]) {
      const reply = await call(target, { ...USERS, body });
      expect(reply.status).toBe(400);
      expect(reply.body.scimType).toBe('invalidSyntax');
      expect(reply.body.detail).toContain('surrogate');
    }
    expect((await call(target, { method: 'GET', path: '/Users' })).body.totalResults).toBe(0);
    // A well-formed pair is one character and fine.
    expect((await call(target, { ...USERS, body: '{"userName":"party \\ud83c\\udf89"}' })).body.userName).toBe('party 🎉');
  });

  it('answers a deeply nested or cyclic parsed body with a 400, never a hang or a 500', async () => {
    const target = server();
    const deep = `{"userName":"deep","name":{"givenName":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`;
    expect((await call(target, { ...USERS, body: deep })).status).toBe(400);
    const cyclic: Record<string, unknown> = { userName: 'cyclic' };
    cyclic['name'] = cyclic;
    const reply = await call(target, { ...USERS, body: cyclic });
    expect(reply.status).toBe(400);
  });

  it('refuses a member name given twice in one object (RFC 8259 §4) instead of silently keeping the last', async () => {
    const target = server();
    for (const body of [
      '{"userName":"first","userName":"second"}',
      '{"userName":"a","name":{"givenName":"x","givenName":"y"}}',
      '{"userName":"b","\\u0075serName":"c"}',
      '{"userName":"c","emails":[{"value":"a@b.c","value":"d@e.f"}]}',
      // A name ending in an escaped backslash: the quote after it closes the name.
      '{"userName":"d","x\\\\":1,"x\\\\":2}',
    ]) {
      const reply = await call(target, { ...USERS, body });
      expect(reply.status, body).toBe(400);
      expect(reply.body.scimType).toBe('invalidSyntax');
      expect(reply.body.detail).toContain('twice');
    }
    const patch = await call(target, { method: 'PATCH', path: '/Users/x', body: '{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"add","op":"remove","path":"title"}]}' });
    expect(patch.body.scimType).toBe('invalidSyntax');
    expect((await call(target, { method: 'GET', path: '/Users' })).body.totalResults).toBe(0);
    // The same name in different objects, or inside strings, is fine.
    const fine = '{"userName":"ok \\"userName\\": {,}[","name":{"formatted":"x"},"emails":[{"value":"a@b.c","type":"work"},{"value":"d@e.f","type":"home"}]}';
    expect((await call(target, { ...USERS, body: fine })).status).toBe(201);
    // Escaped backslashes and quotes in names and values do not confuse where a string ends.
    const escaped = '{"userName":"e\\\\","name":{"formatted":"\\\\\\"q\\\\","givenName":"\\""}}';
    const created = await call(target, { ...USERS, body: escaped });
    expect(created.body.name, JSON.stringify(created.body)).toEqual({ formatted: '\\"q\\', givenName: '"' });
  });

  it('scans a 1 MB body for duplicate members quickly', async () => {
    const target = server({ limits: { maxBodyBytes: 2 * 1024 * 1024 } });
    const emails = Array.from({ length: 15_000 }, (_, i) => ({ value: `user${i}@example.com`, type: 'work' }));
    const body = JSON.stringify(user('large', { emails }));
    expect(body.length).toBeGreaterThan(700_000);
    const started = performance.now();
    expect((await call(target, { ...USERS, body })).status).toBe(201);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
