import { createHash, generateKeyPairSync, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EventOutbox } from '@scimkit/core';
import { readRequestBody } from '@scimkit/core/adapter';
import { createSetIssuer, createSetPollEndpoint, type SetIssuer, type SetPollEndpoint } from '@scimkit/events';

/** Where the feed answers: RFC 8936 polls, and the key SETs are signed with. */
export const SET_POLL_PATH = '/events/poll';
export const SET_JWKS_PATH = '/events/jwks.json';

/** The feed settings `SCIM_SET_POLL_TOKEN` / `SCIM_SET_AUDIENCE` name, checked. */
export type SetFeedSettings = { readonly ok: true; readonly token: string; readonly audience: string } | { readonly ok: false; readonly error: string };

export function setFeedSettings(env: NodeJS.ProcessEnv = process.env): SetFeedSettings | undefined {
  const token = env['SCIM_SET_POLL_TOKEN'];
  if (token === undefined || token === '') return undefined;
  if (token.length < 16) return { ok: false, error: 'SCIM_SET_POLL_TOKEN must be at least 16 characters (the bearer token the SET receiver polls with)' };
  return { ok: true, token, audience: env['SCIM_SET_AUDIENCE'] || 'urn:scimkit:set-receiver' };
}

export interface SetFeed {
  /** The event URIs the feed emits, for `events.securityEvents` (/ServiceProviderConfig, RFC 9967 §4). */
  readonly eventUris: readonly string[];
  /** Set the SETs' `iss` once the server's origin is known (unless SCIM_ISSUER fixed it). */
  listening(origin: string): void;
  /** A request listener for the feed's two paths; every other request goes to `next`. */
  listener(next?: (req: IncomingMessage, res: ServerResponse) => void): (req: IncomingMessage, res: ServerResponse) => void;
}

/**
 * The full server's RFC 9967 SET feed over the store's outbox (docs/concepts/events.md): `POST
 * /events/poll` is an RFC 8936 poll endpoint for the receiver holding `SCIM_SET_POLL_TOKEN`
 * (`Authorization: Bearer`, 401 otherwise), `GET /events/jwks.json` the public key the SETs
 * (ES256, generated at start) validate with. The consumer `set-poll` keeps its position in the
 * store: what a receiver has not acknowledged is served again, after a restart too.
 */
export function createSetFeed(
  outbox: EventOutbox,
  settings: { readonly token: string; readonly audience: string },
  options: { readonly issuer?: string; readonly owner?: string } = {},
): SetFeed {
  const issuerUrl = options.issuer;
  const keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const make = (iss: string): SetIssuer => createSetIssuer({ issuer: iss, audience: settings.audience, keys, kid: 'scimkit-set-1' });
  let issuer = make(issuerUrl ?? 'http://127.0.0.1/scim/v2');
  const current: SetIssuer = { claims: (event) => issuer.claims(event), sign: (event) => issuer.sign(event), jwks: () => issuer.jwks(), eventUris: issuer.eventUris };
  const poll: SetPollEndpoint = createSetPollEndpoint({ outbox, consumer: 'set-poll', issuer: current, ...(options.owner === undefined ? {} : { owner: options.owner }) });
  const expected = createHash('sha256').update(`Bearer ${settings.token}`).digest();
  const authorized = (req: IncomingMessage): boolean => timingSafeEqual(createHash('sha256').update(req.headers.authorization ?? '').digest(), expected);
  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void =>
    void res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers }).end(JSON.stringify(body));

  async function answerPoll(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') return send(res, 405, { err: 'invalid_request', description: 'poll with POST (RFC 8936 §2.4)' }, { allow: 'POST' });
    // RFC 8936 §2.4 / RFC 6750 §3: the receiver authenticates; anyone else learns nothing.
    if (!authorized(req)) return send(res, 401, { err: 'authentication_failed', description: 'a valid bearer token is required' }, { 'www-authenticate': 'Bearer realm="scim-events"' });
    const read = await readRequestBody(req, { maxBytes: 1_048_576, timeoutMs: 10_000 });
    if (read.kind === 'aborted') return;
    if (read.kind === 'refused') return send(res, read.response.status, { err: 'invalid_request', description: 'the poll request body was too large or too slow' }, { connection: 'close' });
    let body: unknown;
    try {
      body = read.body === undefined ? {} : JSON.parse(Buffer.from(read.body).toString('utf8'));
    } catch {
      return send(res, 400, { err: 'invalid_request', description: 'the poll request body is not JSON' });
    }
    const answer = await poll.handle(body);
    res.writeHead(answer.status, answer.headers).end(answer.body);
  }

  return {
    eventUris: issuer.eventUris,
    listening(origin) {
      if (issuerUrl === undefined) issuer = make(`${origin}/scim/v2`);
    },
    listener(next) {
      return (req, res) => {
        const path = (req.url ?? '/').split('?')[0];
        if (path === SET_POLL_PATH) return void answerPoll(req, res).catch(() => (res.headersSent ? res.destroy() : send(res, 500, { err: 'server_error', description: 'the poll failed' })));
        if (path === SET_JWKS_PATH && (req.method === 'GET' || req.method === 'HEAD')) return void current.jwks().then((jwks) => send(res, 200, jwks));
        if (next !== undefined) return next(req, res);
        send(res, 404, { detail: 'not found' });
      };
    },
  };
}
