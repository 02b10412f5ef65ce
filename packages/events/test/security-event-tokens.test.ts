import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMemoryStore, createScimServer, groupResourceType, userResourceType, type ScimServer, type ScimStore } from '@scimkit/core';
import { createEventDispatcher, createSetIssuer, createSetPollEndpoint, SCIM_EVENT_URIS, setPushDelivery, type SetIssuer } from '@scimkit/events';
import { createRemoteJWKSet, generateKeyPair, jwtVerify, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from './receiver.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const ISSUER = 'https://scim.example.com/scim/v2';
const AUDIENCE = 'https://receiver.example.com/';
const quiet = { log: () => undefined };

let issuer: SetIssuer;
let jwksUrl: string;
let closeJwks: () => void;

beforeAll(async () => {
  issuer = createSetIssuer({ issuer: ISSUER, audience: AUDIENCE, keys: await generateKeyPair('ES256', { extractable: true }), kid: 'k1' });
  // The published key, as a receiver fetches it.
  const server = createServer((_request, response) => void issuer.jwks().then((jwks) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks))));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
  closeJwks = () => server.close();
});
afterAll(() => closeJwks());

function scim(store: ScimStore, extra = {}): ScimServer {
  return createScimServer({ resourceTypes: [userResourceType, groupResourceType], store, events: { securityEvents: { eventUris: issuer.eventUris } }, logger: quiet, ...extra });
}

const request = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => ({
  method,
  path,
  headers: { 'content-type': 'application/scim+json', ...headers },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

/** Validate a SET as a receiver does: signature against the published JWKS, issuer, audience, type. */
async function validate(token: string): Promise<JWTPayload> {
  const { payload, protectedHeader } = await jwtVerify(token, createRemoteJWKSet(new URL(jwksUrl)), { issuer: ISSUER, audience: AUDIENCE, typ: 'secevent+jwt' });
  expect(protectedHeader).toMatchObject({ alg: 'ES256', kid: 'k1', typ: 'secevent+jwt' });
  // RFC 8417 §2.2 / RFC 9967 §2: every SET has iss, iat, jti, aud, events, and here sub_id (format scim) and txn.
  for (const claim of ['iss', 'iat', 'jti', 'aud', 'events', 'sub_id', 'txn']) expect(payload, claim).toHaveProperty(claim);
  expect((payload['sub_id'] as { format: string }).format).toBe('scim');
  return payload;
}

describe('RFC 9967 Security Event Tokens', () => {
  it('pushes (RFC 8935) SETs that validate with jose against the published JWKS, with the RFC 9967 claims', async () => {
    const store = createMemoryStore();
    const server = scim(store);
    const tokens: string[] = [];
    const receiver = await startReceiver(({ headers, body }, response) => {
      expect(headers['content-type']).toBe('application/secevent+jwt');
      tokens.push(body);
      response.writeHead(202).end();
    });
    try {
      const created = await server.handle(request('POST', '/Users', { schemas: [USER], userName: 'set' }, { 'x-request-id': 'req-set-1' }));
      const id = JSON.parse(created.body ?? '{}').id as string;
      await server.handle(request('PATCH', `/Users/${id}`, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', path: 'active', value: false }] }));
      await server.handle(request('PUT', `/Users/${id}`, { schemas: [USER], userName: 'set', title: 'x' }));
      const group = await server.handle(request('POST', '/Groups', { schemas: [GROUP], displayName: 'g', members: [{ value: id }] }));
      await server.handle(request('DELETE', `/Users/${id}`));
      const dispatcher = createEventDispatcher({ outbox: store.outbox!, consumer: 'push', deliver: setPushDelivery({ url: receiver.url, issuer }), logger: quiet });
      await dispatcher.runOnce();
      const payloads = await Promise.all(tokens.map(validate));
      // Partitions deliver concurrently: the order is per resource.
      const of = (uri: string) => payloads.filter((p) => (p['sub_id'] as { uri: string }).uri === uri);
      const groupUri = `/Groups/${JSON.parse(group.body ?? '{}').id}`;
      expect(of(`/Users/${id}`).map((p) => Object.keys(p['events'] as object).sort())).toEqual([
        [SCIM_EVENT_URIS.feedAdd, SCIM_EVENT_URIS.createNotice].sort(),
        [SCIM_EVENT_URIS.patchNotice],
        [SCIM_EVENT_URIS.deactivate],
        [SCIM_EVENT_URIS.putNotice],
        [SCIM_EVENT_URIS.feedRemove, SCIM_EVENT_URIS.delete].sort(),
      ]);
      expect(of(groupUri).map((p) => Object.keys(p['events'] as object).sort())).toEqual([[SCIM_EVENT_URIS.feedAdd, SCIM_EVENT_URIS.createNotice].sort(), [SCIM_EVENT_URIS.patchNotice]]);
      const [createdSet, patched] = of(`/Users/${id}`);
      expect(createdSet).toMatchObject({ sub_id: { format: 'scim', uri: `/Users/${id}` }, txn: 'req-set-1', iss: ISSUER, aud: AUDIENCE });
      expect(patched?.['events']).toEqual({ [SCIM_EVENT_URIS.patchNotice]: { attributes: ['active'], version: expect.any(String) } });
      expect(of(groupUri)[1]).toMatchObject({ events: { [SCIM_EVENT_URIS.patchNotice]: { attributes: ['members'] } } });
      expect(new Set(payloads.map((p) => p.jti)).size).toBe(7);
      // A tampered SET does not validate.
      const [head, , signature] = tokens[0]!.split('.');
      const forged = Buffer.from(JSON.stringify({ ...payloads[0], txn: 'forged' })).toString('base64url');
      await expect(validate(`${head}.${forged}.${signature}`)).rejects.toThrow();
    } finally {
      await receiver.close();
    }
  });

  it('full mode carries the resource as data (create:full, put:full)', async () => {
    const full = createSetIssuer({ issuer: ISSUER, audience: AUDIENCE, keys: await generateKeyPair('ES256', { extractable: true }), mode: 'full' });
    const store = createMemoryStore();
    const server = createScimServer({ resourceTypes: [userResourceType], store, events: { payload: 'resource' }, logger: quiet });
    await server.handle(request('POST', '/Users', { schemas: [USER], userName: 'fully' }));
    const leases = await store.outbox!.lease('f', 'me', { max: store.outbox!.partitions, leaseMs: 1000 });
    const [record] = (await Promise.all(leases.map((lease) => store.outbox!.read(lease, 10)))).flat();
    const claims = full.claims(record!.event);
    expect(claims['events']).toMatchObject({ [SCIM_EVENT_URIS.createFull]: { data: { userName: 'fully' } }, [SCIM_EVENT_URIS.feedAdd]: {} });
  });

  it('serves RFC 8936 polling: sets, acknowledgements, unacknowledged SETs served again, setErrs dead-lettered', async () => {
    const store = createMemoryStore();
    const server = scim(store);
    for (const name of ['p1', 'p2', 'p3']) await server.handle(request('POST', '/Users', { schemas: [USER], userName: name }));
    const poll = createSetPollEndpoint({ outbox: store.outbox!, consumer: 'poller', issuer });
    const first = await poll.handle({ maxEvents: 2, returnImmediately: true });
    expect(first.status).toBe(200);
    const body1 = JSON.parse(first.body) as { sets: Record<string, string>; moreAvailable: boolean };
    expect(Object.keys(body1.sets)).toHaveLength(2);
    expect(body1.moreAvailable).toBe(true);
    for (const [jti, token] of Object.entries(body1.sets)) expect((await validate(token)).jti).toBe(jti);
    const [ackOne, errOne] = Object.keys(body1.sets) as [string, string];
    const second = JSON.parse((await poll.handle({ ack: [ackOne], setErrs: { [errOne]: { err: 'invalid_key', description: 'no' } }, returnImmediately: true })).body) as { sets: Record<string, string> };
    expect(Object.keys(second.sets)).toHaveLength(1);
    expect(Object.keys(second.sets)).not.toContain(ackOne);
    expect((await store.outbox!.deadLetters('poller', 10)).map((l) => [l.event.id, l.error])).toEqual([[errOne, 'invalid_key: no']]);
    // Not acknowledged: served again.
    const again = JSON.parse((await poll.handle({ returnImmediately: true })).body) as { sets: Record<string, string> };
    expect(Object.keys(again.sets)).toEqual(Object.keys(second.sets));
    const done = JSON.parse((await poll.handle({ ack: Object.keys(again.sets), returnImmediately: true })).body) as { sets: Record<string, string>; moreAvailable: boolean };
    expect(done).toEqual({ sets: {}, moreAvailable: false });
    expect((await store.outbox!.stats('poller')).backlog).toBe(0);
    expect((await poll.handle('nonsense')).status).toBe(400);
    expect((await poll.handle({ ack: 'x' })).status).toBe(400);
  });

  it('a long poll waits for the next event, bounded', async () => {
    const store = createMemoryStore();
    const server = scim(store);
    const poll = createSetPollEndpoint({ outbox: store.outbox!, consumer: 'long', issuer, maxWaitMs: 2_000 });
    const started = Date.now();
    const pending = poll.handle({ returnImmediately: false });
    setTimeout(() => void server.handle(request('POST', '/Users', { schemas: [USER], userName: 'late' })), 300);
    const body = JSON.parse((await pending).body) as { sets: Record<string, string> };
    expect(Object.keys(body.sets)).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(2_000);
    const quietStore = createMemoryStore();
    const empty = createSetPollEndpoint({ outbox: quietStore.outbox!, consumer: 'empty', issuer, maxWaitMs: 300 });
    const waitedFrom = Date.now();
    expect(JSON.parse((await empty.handle({ ack: [], returnImmediately: false })).body)).toMatchObject({ sets: {} });
    expect(Date.now() - waitedFrom).toBeGreaterThanOrEqual(250);
  });

  it('advertises securityEvents in /ServiceProviderConfig (RFC 9967 §4)', async () => {
    const response = await scim(createMemoryStore()).handle({ method: 'GET', path: '/ServiceProviderConfig', headers: {} });
    expect(JSON.parse(response.body ?? '{}').securityEvents).toEqual({ asyncRequest: 'none', eventUris: [...issuer.eventUris] });
    const plain = createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore(), logger: quiet });
    expect(JSON.parse((await plain.handle({ method: 'GET', path: '/ServiceProviderConfig', headers: {} })).body ?? '{}')).not.toHaveProperty('securityEvents');
  });
});
