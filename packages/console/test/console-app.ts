import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearerToken, createMemoryStore, createScimServer, groupResourceType, userResourceType, type ScimServer } from '@scimkit/core';
import { createNodeHandler } from '@scimkit/node';
import { createDeliveryLog, createEventDispatcher, webhookDelivery, type EventDispatcher } from '@scimkit/events';
import { createConsole, createRequestLog, passwordLogin, type RedactionOptions, type RequestLog } from '../src/index.js';

export const CONSOLE_PASSWORD = 'correct horse battery staple';
export const ENTRA_TOKEN = 'entra-provisioning-token-7f3a9c';
export const OKTA_TOKEN = 'okta-provisioning-token-21be55';

export interface ConsoleApp {
  readonly origin: string;
  readonly scim: ScimServer;
  readonly log: RequestLog;
  /** With `webhook`: the dispatcher delivering the store's events there (run it with `runOnce()`). */
  readonly dispatcher?: EventDispatcher;
  close(): Promise<void>;
}

/** A Standard Webhooks secret for tests. */
export const WEBHOOK_SECRET = `whsec_${Buffer.from('a console test secret, 32 bytes!').toString('base64')}`;

/**
 * The console as an application mounts it: SCIM at /scim/v2 and the console at /console on one
 * `node:http` server (port 0), the console behind a password login. Entra ID and Okta each have a
 * token; the server keeps the RFC answer for Entra's `replace` on a missing value path.
 */
export async function startConsoleApp(options: { actions?: boolean; redaction?: RedactionOptions; webhook?: string } = {}): Promise<ConsoleApp> {
  const log = createRequestLog(options.redaction === undefined ? {} : { redaction: options.redaction });
  const store = createMemoryStore();
  const scim = createScimServer({
    resourceTypes: [userResourceType, groupResourceType],
    store,
    ...bearerToken({ tokens: [{ token: ENTRA_TOKEN, principal: 'entra-provisioning' }, { token: OKTA_TOKEN, principal: 'okta-provisioning' }] }),
    requestLog: log,
    ...(options.webhook === undefined ? {} : { events: {} }),
  });
  // With a webhook URL: events delivered there (two attempts, then a dead letter), every attempt recorded for the Webhooks page.
  const deliveries = options.webhook === undefined ? undefined : createDeliveryLog();
  const dispatcher =
    options.webhook === undefined || deliveries === undefined
      ? undefined
      : createEventDispatcher({
          outbox: store.outbox!,
          consumer: 'webhook',
          deliver: deliveries.track(webhookDelivery({ endpoint: { url: options.webhook, secret: WEBHOOK_SECRET }, fetch: deliveries.fetch() })),
          maxAttempts: 2,
          backoff: { baseMs: 1, maxMs: 2 },
          logger: { log: () => undefined },
        });
  const console = createConsole({
    log,
    scim,
    login: passwordLogin(CONSOLE_PASSWORD),
    basePath: '/console',
    actions: options.actions ?? false,
    ...(deliveries === undefined || dispatcher === undefined ? {} : { deliveries: deliveries.view({ outbox: store.outbox!, consumer: 'webhook', dispatcher }) }),
  });
  const scimHandler = createNodeHandler(scim, { basePath: '/scim/v2' });
  const consoleHandler = createNodeHandler(console, { basePath: '/console' });
  const server: Server = createServer((req, res) =>
    scimHandler(req, res, () =>
      consoleHandler(req, res, () => {
        res.writeHead(404).end();
      }),
    ),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    scim,
    log,
    ...(dispatcher === undefined ? {} : { dispatcher }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await log.close();
    },
  };
}

/** Send one SCIM request over HTTP as an identity provider does. */
export async function scimCall(origin: string, token: string, userAgent: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${origin}/scim/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'user-agent': userAgent, 'content-type': 'application/scim+json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}
