import { bearerToken, createMemoryStore, createScimServer, userResourceType, type RecordedRequest } from '@scimkit/core';
import { describe, expect, it } from 'vitest';
import { createMemoryLogStore, createRequestLog, type LogStore } from '../src/index.js';
import { entraRequest, provisionAsEntra } from './entra-flow.js';

const TOKEN = 'entra-secret-token-0123456789';

function serverWith(log = createRequestLog()) {
  const scim = createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore(), ...bearerToken({ tokens: [{ token: TOKEN, principal: 'entra-app' }] }), requestLog: log });
  return { scim, log };
}

describe('the request log', () => {
  it('records each request of an Entra provisioning with client, IdP, changes, versions and a hint for the refused one', async () => {
    const { scim, log } = serverWith();
    const { id, statuses } = await provisionAsEntra(scim, TOKEN, 'bjensen@example.com');
    expect(statuses).toEqual([201, 200, 400]);
    await log.flush();
    const { records } = await log.query({ tenant: '' });
    expect(records.map((r) => [r.method, r.status])).toEqual([
      ['PATCH', 400],
      ['PATCH', 200],
      ['POST', 201],
    ]);
    const [refused, patched, created] = records;
    expect(created?.client).toBe('entra-app');
    expect(created?.idp).toBe('Microsoft Entra ID');
    expect(created?.changes).toMatchObject([{ operation: 'create', resourceType: 'User', id, versionAfter: expect.any(String) }]);
    expect(created?.userName).toBe('bjensen@example.com');
    expect(patched?.changes[0]?.diff).toEqual(
      expect.arrayContaining([
        { path: 'active', before: 'true', after: 'false' },
        { path: 'displayName', after: '"Barbara J."' },
      ]),
    );
    expect(patched?.changes[0]?.versionBefore).toBe(created?.changes[0]?.versionAfter);
    expect(refused).toMatchObject({ scimType: 'noTarget', resourceId: id, userName: 'bjensen@example.com', hint: { option: 'createMissingValuePath', profile: 'entra' } });
    expect(refused?.detail).toContain('no value matches');
    expect(created?.requestHeaders['authorization']).toBe('[redacted]');
    expect(JSON.stringify(records)).not.toContain(TOKEN);
    expect(JSON.stringify(records)).not.toContain('Pa55word-never-logged');
    expect(created?.requestBody?.text).toContain('"password":"[redacted]"');
    expect(created?.durationMs).toBeGreaterThan(0);
  });

  it('answers queries by status, resource id, userName, client and time', async () => {
    const { scim, log } = serverWith();
    const a = await provisionAsEntra(scim, TOKEN, 'alice@example.com');
    await provisionAsEntra(scim, TOKEN, 'bob@example.com');
    await scim.handle({ method: 'GET', path: '/Users', headers: {} });
    await log.flush();
    expect((await log.query({ tenant: '', status: 'error' })).records.map((r) => r.status)).toEqual([401, 400, 400]);
    expect((await log.query({ tenant: '', status: 401 })).records[0]?.client).toBe('anonymous');
    expect((await log.query({ tenant: '', resourceId: a.id })).records).toHaveLength(3);
    expect((await log.query({ tenant: '', userName: 'ALICE' })).records.map((r) => r.method)).toEqual(['PATCH', 'PATCH', 'POST']);
    expect((await log.query({ tenant: '', client: 'entra-app' })).records).toHaveLength(6);
    expect((await log.query({ tenant: '', from: Date.now() + 1000 })).records).toHaveLength(0);
    const first = await log.query({ tenant: '', limit: 4 });
    const second = await log.query({ tenant: '', limit: 4, ...(first.next === undefined ? {} : { after: first.next }) });
    expect(first.records).toHaveLength(4);
    expect(second.records).toHaveLength(3);
    expect(second.next).toBeUndefined();
    const clients = await log.clients('');
    expect(clients.map((c) => [c.client, c.requests, c.errors])).toEqual([
      ['anonymous', 1, 1],
      ['entra-app', 6, 2],
    ]);
    const buckets = await log.rates('', Date.now() - 60_000, Date.now() + 1, 10_000);
    expect(buckets.reduce((n, b) => n + b.requests, 0)).toBe(7);
    expect(buckets.reduce((n, b) => n + b.errors, 0)).toBe(3);
  });

  it('keeps a bounded ring: the newest records only', async () => {
    const { scim, log } = serverWith(createRequestLog({ store: createMemoryLogStore({ maxRecords: 3 }) }));
    for (let i = 0; i < 5; i++) await scim.handle(entraRequest('GET', '/Users', TOKEN, undefined, { startIndex: String(i + 1) }));
    await log.flush();
    expect((await log.query({ tenant: '' })).records.map((r) => r.query['startIndex'])).toEqual(['5', '4', '3']);
  });

  it('off by configuration: nothing recorded', async () => {
    const { scim, log } = serverWith(createRequestLog({ enabled: false }));
    await provisionAsEntra(scim, TOKEN, 'carol@example.com');
    await log.flush();
    expect((await log.query({ tenant: '' })).records).toHaveLength(0);
  });

  it('a failing store or a throwing recorder never fails the request', async () => {
    const errors: unknown[] = [];
    const broken: LogStore = { ...createMemoryLogStore(), append: () => Promise.reject(new Error('disk full')) };
    const { scim, log } = serverWith(createRequestLog({ store: broken, onError: (e) => errors.push(e) }));
    const { statuses } = await provisionAsEntra(scim, TOKEN, 'dave@example.com');
    expect(statuses).toEqual([201, 200, 400]);
    await log.flush();
    expect(errors.length).toBeGreaterThanOrEqual(1);
    expect(errors.every((e) => e instanceof Error && e.message === 'disk full')).toBe(true);
    expect(log.stats.failed).toBe(errors.length);
    expect(log.stats.recorded).toBe(0);

    const logged: unknown[] = [];
    const throwing = createScimServer({
      resourceTypes: [userResourceType],
      store: createMemoryStore(),
      logger: { log: (record) => logged.push(record) },
      requestLog: {
        record(_: RecordedRequest) {
          throw new Error('recorder bug');
        },
      },
    });
    const answer = await throwing.handle({ method: 'GET', path: '/Users', headers: {} });
    expect(answer.status).toBe(200);
    expect(logged).toContainEqual(expect.objectContaining({ level: 'error', message: 'the request log failed to record a request' }));
  });

  it('drops and counts requests beyond maxPending instead of growing', async () => {
    // The core's records are captured, then handed to the log in one tick, so that no drain (which
    // runs on setImmediate) can empty the queue between them, however the machine schedules handle().
    const log = createRequestLog({ maxPending: 2 });
    const captured: RecordedRequest[] = [];
    const scim = createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore(), ...bearerToken({ tokens: [{ token: TOKEN, principal: 'entra-app' }] }), requestLog: { record: (request) => void captured.push(request) } });
    await Promise.all([1, 2, 3, 4].map(() => scim.handle(entraRequest('GET', '/Users', TOKEN))));
    expect(captured).toHaveLength(4);
    for (const request of captured) log.record(request);
    await log.flush();
    expect(log.stats.dropped).toBe(2);
    expect(log.stats.recorded).toBe(2);
  });

  it('records tenants apart', async () => {
    const log = createRequestLog();
    const scim = createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore(), ...bearerToken({ tokens: [{ token: 'acme-token-123456', tenant: 'acme' }, { token: 'globex-token-123456', tenant: 'globex' }] }), requestLog: log });
    await provisionAsEntra(scim, 'acme-token-123456', 'a@acme.example');
    await scim.handle(entraRequest('GET', '/Users', 'globex-token-123456'));
    await log.flush();
    expect(await log.tenants()).toEqual(['acme', 'globex']);
    expect((await log.query({ tenant: 'acme' })).records).toHaveLength(3);
    expect((await log.query({ tenant: 'globex' })).records).toHaveLength(1);
  });

  it('keeps an accepted body in which nothing needs redaction as the client sent it, and redacts one that spells a secret with JSON escapes', async () => {
    const { scim, log } = serverWith(createRequestLog({ redaction: { secretFields: ['employeeNumber'] } }));
    const { id } = await provisionAsEntra(scim, TOKEN, 'erin@example.com');
    const sent = `{ "schemas": ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],\n  "Operations": [{ "op": "replace", "path": "title", "value": "Engineer" }] }`;
    const plain = await scim.handle({ ...entraRequest('PATCH', `/Users/${id}`, TOKEN), body: sent });
    expect(plain.status).toBe(200);
    const escaped = await scim.handle({ ...entraRequest('PATCH', `/Users/${id}`, TOKEN), body: `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"replace","value":{"\\u0070assword":"Escaped-Pa55-never-logged"}}]}` });
    expect(escaped.status).toBe(200);
    const configured = await scim.handle(entraRequest('PATCH', `/Users/${id}`, TOKEN, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'add', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber', value: 'E-70123' }] }));
    expect(configured.status).toBeLessThan(500);
    await log.flush();
    const [third, second, first] = (await log.query({ tenant: '', limit: 3 })).records;
    expect(first?.requestBody).toEqual({ text: sent, bytes: sent.length, truncated: false });
    expect(second?.requestBody?.text).toContain('"password":"[redacted]"');
    expect(JSON.stringify(second)).not.toContain('Escaped-Pa55');
    expect(JSON.stringify(third)).not.toContain('E-70123');
  });

  it('keeps a body sent as bytes as the server decoded it, in the charset the client named', async () => {
    const { scim, log } = serverWith();
    const { id } = await provisionAsEntra(scim, TOKEN, 'zoe@example.com');
    const sent = '{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"replace","path":"displayName","value":"Zoë Ñúñez"}]}';
    const answer = await scim.handle({ ...entraRequest('PATCH', `/Users/${id}`, TOKEN), headers: { ...entraRequest('PATCH', `/Users/${id}`, TOKEN).headers, 'content-type': 'application/scim+json; charset=iso-8859-1' }, body: Buffer.from(sent, 'latin1') });
    expect(answer.status).toBe(200);
    const utf8 = await scim.handle({ ...entraRequest('PATCH', `/Users/${id}`, TOKEN), body: new TextEncoder().encode(sent.replace('Zoë', 'Zoé')) });
    expect(utf8.status).toBe(200);
    await log.flush();
    const [second, first] = (await log.query({ tenant: '', limit: 2 })).records;
    expect(first?.requestBody).toEqual({ text: sent, bytes: sent.length, truncated: false });
    expect(first?.changes[0]?.diff).toContainEqual(expect.objectContaining({ path: 'displayName', after: '"Zoë Ñúñez"' }));
    expect(second?.requestBody?.text).toBe(sent.replace('Zoë', 'Zoé'));
    expect(second?.requestBody?.bytes).toBe(Buffer.byteLength(sent.replace('Zoë', 'Zoé')));
  });

  it('scrubs the credential from a diff that echoes it (and leaves every other diff as built)', async () => {
    const { scim, log } = serverWith();
    const { id } = await provisionAsEntra(scim, TOKEN, 'frank@example.com');
    await scim.handle(entraRequest('PATCH', `/Users/${id}`, TOKEN, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', path: 'title', value: `pasted ${TOKEN} by mistake` }, { op: 'replace', path: 'nickName', value: 'Frank' }] }));
    await log.flush();
    const [record] = (await log.query({ tenant: '', limit: 1 })).records;
    expect(record?.changes[0]?.diff).toEqual(
      expect.arrayContaining([
        { path: 'title', after: '"pasted *** by mistake"' },
        { path: 'nickName', after: '"Frank"' },
      ]),
    );
    expect(JSON.stringify(record)).not.toContain(TOKEN);
  });

  it('reuses what repeated headers give, and still scrubs them of a secret a later request removes', async () => {
    const log = createRequestLog({ redaction: { personalData: 'mask' } });
    const scim = createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore(), ...bearerToken({ tokens: [{ token: TOKEN, principal: 'entra-app' }] }), requestLog: log });
    // One client, the same headers on every request; its User-Agent happens to hold a user's name.
    const headers = { authorization: `Bearer ${TOKEN}`, 'user-agent': 'Provisioner for carol.lee@example.com', 'content-type': 'application/scim+json', 'x-api-key': 'key-0123456789' };
    const created = await scim.handle({ method: 'POST', path: '/Users', headers: { ...headers }, body: JSON.stringify({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'carol.lee@example.com' }) });
    expect(created.status).toBe(201);
    const id = (JSON.parse(created.body ?? '{}') as { id: string }).id;
    for (let i = 0; i < 2; i++) expect((await scim.handle({ method: 'GET', path: `/Users/${id}`, headers: { ...headers } })).status).toBe(200);
    await log.flush();
    const [second, first, post] = (await log.query({ tenant: '', limit: 3 })).records;
    // The reads removed nothing: their headers are kept as sent, the credentials as [redacted], one object for both.
    expect(first?.requestHeaders).toEqual({ authorization: '[redacted]', 'x-api-key': '[redacted]', 'user-agent': 'Provisioner for carol.lee@example.com', 'content-type': 'application/scim+json' });
    expect(second?.requestHeaders).toBe(first?.requestHeaders);
    expect(first?.userAgent).toBe('Provisioner for carol.lee@example.com');
    // The create masked the userName: the same headers are scrubbed of it there.
    expect(post?.userName).toBe('***');
    expect(post?.userAgent).toBe('Provisioner for ***');
    expect(post?.requestHeaders['user-agent']).toBe('Provisioner for ***');
    expect(JSON.stringify([post, first, second])).not.toContain(TOKEN);
    expect(JSON.stringify([post, first, second])).not.toContain('key-0123456789');
  });
});
