import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMemoryStore, createScimServer } from '@scimkit/core';
import { SCIM_EVENT_URIS } from '@scimkit/events';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { createFullServerConfig, createSetFeed, fullServerListener, setFeedSettings } from '../src/index.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const POLL_TOKEN = 'a poller token of 32 characters';
const AUDIENCE = 'https://receiver.example.com/';

const running: Server[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
});

/** The full server as main.ts assembles it with SCIM_SET_POLL_TOKEN: SCIM at /scim/v2, the SET feed beside it. */
async function start(): Promise<string> {
  const store = createMemoryStore();
  const feed = createSetFeed(store.outbox!, { token: POLL_TOKEN, audience: AUDIENCE });
  const scim = createScimServer(createFullServerConfig({ token: 'scim-token', store, events: { securityEvents: { eventUris: feed.eventUris } } }));
  const server = createServer(fullServerListener(scim, undefined, feed.listener()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  running.push(server);
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  feed.listening(origin);
  return origin;
}

async function scim(origin: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${origin}/scim/v2${path}`, {
    method,
    headers: { 'content-type': 'application/scim+json', authorization: 'Bearer scim-token' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

/** One RFC 8936 poll, as a receiver sends it. */
async function poll(origin: string, body: unknown, token = POLL_TOKEN): Promise<{ status: number; body: any }> {
  const response = await fetch(`${origin}/events/poll`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

describe('full server: the RFC 8936 SET poll endpoint (SCIM_SET_POLL_TOKEN)', () => {
  it('a poller gets every event as a SET that validates with jose against the published key, acknowledges, and is not served them again', async () => {
    const origin = await start();
    const created = await scim(origin, 'POST', '/Users', { schemas: [USER], userName: 'polled' });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await scim(origin, 'PATCH', `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] })).status).toBe(204);

    const first = await poll(origin, { maxEvents: 10, returnImmediately: true });
    expect(first.status).toBe(200);
    const jwks = createRemoteJWKSet(new URL(`${origin}/events/jwks.json`));
    const payloads: JWTPayload[] = [];
    for (const [jti, token] of Object.entries(first.body.sets as Record<string, string>)) {
      const { payload } = await jwtVerify(token, jwks, { issuer: `${origin}/scim/v2`, audience: AUDIENCE, typ: 'secevent+jwt' });
      expect(payload.jti).toBe(jti);
      for (const claim of ['iss', 'iat', 'jti', 'aud', 'events', 'sub_id', 'txn']) expect(payload, claim).toHaveProperty(claim);
      payloads.push(payload);
    }
    // In order for the resource: created (feed:add), then the PATCH (active changed, deactivated).
    expect(payloads.map((p) => Object.keys(p['events'] as object).sort())).toEqual([
      [SCIM_EVENT_URIS.createNotice, SCIM_EVENT_URIS.feedAdd].sort(),
      [SCIM_EVENT_URIS.patchNotice],
      [SCIM_EVENT_URIS.deactivate],
    ]);
    expect(payloads[0]?.['sub_id']).toEqual({ format: 'scim', uri: `/Users/${id}` });

    const acked = await poll(origin, { ack: Object.keys(first.body.sets), returnImmediately: true });
    expect(acked.body).toEqual({ sets: {}, moreAvailable: false });
  });

  it('needs the poll token (401, nothing served), POST only, JSON only; /ServiceProviderConfig advertises securityEvents (RFC 9967 §4)', async () => {
    const origin = await start();
    await scim(origin, 'POST', '/Users', { schemas: [USER], userName: 'secret' });
    const refused = await poll(origin, { returnImmediately: true }, 'the wrong token, 32 characters..');
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ err: 'authentication_failed', description: 'a valid bearer token is required' });
    const anonymous = await fetch(`${origin}/events/poll`, { method: 'POST', body: '{}' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await fetch(`${origin}/events/poll`, { headers: { authorization: `Bearer ${POLL_TOKEN}` } })).status).toBe(405);
    const garbled = await fetch(`${origin}/events/poll`, { method: 'POST', headers: { authorization: `Bearer ${POLL_TOKEN}` }, body: '{"ack": [' });
    expect(garbled.status).toBe(400);
    expect(await garbled.json()).toMatchObject({ err: 'invalid_request' });
    // The refusals consumed nothing: the event is still there for the receiver.
    expect(Object.keys((await poll(origin, { returnImmediately: true })).body.sets)).toHaveLength(1);

    const config = await scim(origin, 'GET', '/ServiceProviderConfig');
    expect(config.body.securityEvents).toEqual({ asyncRequest: 'none', eventUris: expect.arrayContaining([SCIM_EVENT_URIS.feedAdd, SCIM_EVENT_URIS.deactivate]) });
    // The rest of the server is untouched: an unknown path is still a SCIM 404.
    expect((await fetch(`${origin}/elsewhere`)).status).toBe(404);
  });

  it('reads SCIM_SET_POLL_TOKEN and SCIM_SET_AUDIENCE, refusing a short token', () => {
    expect(setFeedSettings({})).toBeUndefined();
    expect(setFeedSettings({ SCIM_SET_POLL_TOKEN: 'short' })).toMatchObject({ ok: false });
    expect(setFeedSettings({ SCIM_SET_POLL_TOKEN: POLL_TOKEN, SCIM_SET_AUDIENCE: AUDIENCE })).toEqual({ ok: true, token: POLL_TOKEN, audience: AUDIENCE });
  });
});
