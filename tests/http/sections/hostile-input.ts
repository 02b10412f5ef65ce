import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { userBody } from '../support/fixtures.js';
import { expectError, expectScimJson } from '../support/expect-scim.js';
import type { Current } from '../support/service-under-test.js';

const SCIM_JSON = { 'Content-Type': 'application/scim+json' };
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

/**
 * Bad input and hostile clients (docs/errors.md, RFC 7644 §3.8, §3.12): every one gets a
 * SCIM error with the right status and scimType, never a 500, a hang or a partial write.
 */
export function describeHostileInput(service: Current): void {
  describe('hostile input', () => {
    it('answers JSON that is not an object with 400 invalidSyntax on every body endpoint', async () => {
      const { client } = service();
      const id = (await client.post('/Users', userBody('target'))).body.id as string;
      for (const raw of ['[]', '"text"', '42', 'null', 'true']) {
        for (const [method, path] of [['POST', '/Users'], ['PUT', `/Users/${id}`], ['PATCH', `/Users/${id}`], ['POST', '/Users/.search'], ['POST', '/.search']] as const) {
          expectError(await client.send(method, path, { raw, headers: SCIM_JSON }), 400, 'invalidSyntax');
        }
      }
      expect((await client.get('/Users')).body.totalResults).toBe(1);
    });

    it('refuses bytes that are not UTF-8 with 400 invalidSyntax and stores nothing', async () => {
      const { client } = service();
      const bytes = new Uint8Array([...encode('{"userName":"bad'), 0xff, 0xfe, ...encode('"}')]);
      const reply = await client.send('POST', '/Users', { raw: bytes, headers: SCIM_JSON });
      expectError(reply, 400, 'invalidSyntax');
      expect(reply.body.detail).toContain('UTF-8');
      expect((await client.get('/Users')).body.totalResults).toBe(0);
    });

    it('decodes a body in the charset the client names (RFC 7644 §3.8); an unknown charset is 415', async () => {
      const { client } = service();
      const latin1 = new Uint8Array([...encode('{"userName":"jos'), 0xe9, ...encode('"}')]);
      const created = await client.send('POST', '/Users', { raw: latin1, headers: { 'Content-Type': 'application/scim+json; charset=ISO-8859-1' } });
      expect(created.status).toBe(201);
      expect(created.body.userName).toBe('josé');
      expectError(await client.send('POST', '/Users', { raw: JSON.stringify(userBody('x')), headers: { 'Content-Type': 'application/scim+json; charset=x-unknown' } }), 415);
    });

    it('refuses a member name given twice in one object with 400 invalidSyntax (RFC 8259 §4)', async () => {
      const { client } = service();
      expectError(await client.send('POST', '/Users', { raw: '{"userName":"first","userName":"second"}', headers: SCIM_JSON }), 400, 'invalidSyntax');
      expect((await client.get('/Users')).body.totalResults).toBe(0);
    });

    it('refuses a string holding a lone surrogate with 400 invalidSyntax', async () => {
      const { client } = service();
      expectError(await client.send('POST', '/Users', { raw: '{"userName":"a\\ud800b"}', headers: SCIM_JSON }), 400, 'invalidSyntax');
      expect((await client.get('/Users')).body.totalResults).toBe(0);
    });

    it('keeps prototype keys at any depth out of every object, and Object.prototype untouched', async () => {
      const { client } = service();
      const id = (await client.post('/Users', userBody('proto'))).body.id as string;
      const bodies = [
        '{"userName":"p1","__proto__":{"polluted":"yes"}}',
        '{"userName":"p2","name":{"__proto__":{"polluted":"yes"}}}',
        '{"userName":"p3","emails":[{"value":"a@example.com","constructor":{"prototype":{"polluted":"yes"}}}]}',
      ];
      for (const raw of bodies) expectError(await client.send('POST', '/Users', { raw, headers: SCIM_JSON }), 400, 'invalidValue');
      for (const path of ['__proto__.polluted', 'constructor.prototype.polluted', 'name.__proto__', 'emails[__proto__ eq "x"].value']) {
        const reply = await client.patch(`/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'add', path, value: 'yes' }] });
        expect(reply.status, path).toBe(400);
        expectScimJson(reply);
      }
      const valueKeys = `{"schemas":["${PATCH_OP}"],"Operations":[{"op":"add","value":{"__proto__":{"polluted":"yes"}}}]}`;
      expectError(await client.send('PATCH', `/Users/${id}`, { raw: valueKeys, headers: SCIM_JSON }), 400, 'invalidValue');
      for (const query of [{ filter: 'constructor.prototype eq "x"' }, { sortBy: 'constructor' }, { attributes: '__proto__' }]) {
        expect((await client.get('/Users', { query })).status).toBe(400);
      }
      expectError(await client.get('/Users/__proto__'), 404);
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
      expect(Object.keys(Object.prototype)).toEqual([]);
      expect((await client.get(`/Users/${id}`)).body.userName).toBe('proto');
    });

    it('answers broken percent-encoding in the path with 404 and in a filter with 400 invalidFilter', async () => {
      const { client } = service();
      for (const path of ['/Users/%ZZ', '/Users/%E0%A4%A', '/Users/..%2F..%2Fetc']) expectError(await client.get(path), 404);
      const reply = await fetch(`${client.baseUrl}/Users?filter=%`);
      expect(reply.status).toBe(400);
      expect(((await reply.json()) as { scimType?: string }).scimType).toBe('invalidFilter');
    });

    it('refuses a declared Content-Length over the limit with 413 before the body is sent, closing the connection', async () => {
      const { baseUrl } = service();
      const url = new URL(baseUrl);
      const reply = await rawExchange(Number(url.port), `POST ${url.pathname}/Users HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/scim+json\r\nContent-Length: 50000000\r\n\r\n`);
      expect(reply).toMatch(/^HTTP\/1\.1 413 /);
      expect(reply.toLowerCase()).toContain('connection: close');
      expect(reply).toContain('"status":"413"');
    });

    it('answers HEAD like GET without a body, and other methods on a known path with 405 + Allow', async () => {
      const { client } = service();
      const created = await client.post('/Users', userBody('head'));
      const head = await client.send('HEAD', `/Users/${created.body.id as string}`);
      expect(head.status).toBe(200);
      expect(head.text).toBe('');
      expect(head.headers.get('etag')).toBe(created.headers.get('etag'));
      expect((await client.send('HEAD', '/Users/missing')).status).toBe(404);
      for (const method of ['OPTIONS', 'PURGE']) {
        const reply = await client.send(method, '/Users');
        expectError(reply, 405);
        expect(reply.headers.get('allow')).toBe('GET, POST');
      }
    });

    it('answers an invalid Host header with 400 instead of echoing it into Location (RFC 9112 §3.2)', async () => {
      const { baseUrl } = service();
      const url = new URL(baseUrl);
      const body = JSON.stringify(userBody('host-check'));
      const post = (host: string) =>
        rawExchange(Number(url.port), `POST ${url.pathname}/Users HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/scim+json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
      for (const host of ['evil.example/x?', '"><script>']) {
        const reply = await post(host);
        expect(reply, host).toMatch(/^HTTP\/1\.1 400 /);
        expect(reply).toContain('"status":"400"');
        expect(reply).not.toContain('evil.example');
      }
      const created = await post('scim_server:8080');
      expect(created).toMatch(/^HTTP\/1\.1 201 /);
      expect(created).toMatch(/Location: http:\/\/scim_server:8080\//i);
    });

    it('answers many concurrent bad requests each with a SCIM error, and keeps serving', async () => {
      const { client } = service();
      const bad = Array.from({ length: 60 }, (_, index) => {
        switch (index % 4) {
          case 0:
            return client.send('POST', '/Users', { raw: '{"userName":', headers: SCIM_JSON });
          case 1:
            return client.send('POST', '/Users', { raw: 'userName=x', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
          case 2:
            return client.get('/Users', { query: { filter: '((((' } });
          default:
            return client.send('PATCH', '/Users/missing', { raw: '[', headers: SCIM_JSON });
        }
      });
      for (const reply of await Promise.all(bad)) {
        expect(reply.status).toBeGreaterThanOrEqual(400);
        expect(reply.status).toBeLessThan(500);
        expectScimJson(reply);
      }
      expect((await client.post('/Users', userBody('after-storm'))).status).toBe(201);
    });
  });
}

/** Write raw bytes, keep the socket open, and collect the answer until the server closes the connection. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    socket.setEncoding('utf8');
    socket.on('data', (data: string) => (received += data));
    socket.on('close', () => resolve(received));
    socket.on('error', () => resolve(received));
    socket.setTimeout(5_000, () => {
      socket.destroy();
      reject(new Error(`the server neither answered nor closed within 5 s; received ${JSON.stringify(received)}`));
    });
  });
}
