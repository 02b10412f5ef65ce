/**
 * `npm run docs:screenshots`: the console's main pages as docs/images/console-*.png, taken in Debian's
 * Chromium (headless, playwright-core) from a demo: two tenants provisioned through the SCIM endpoint
 * by Entra ID and Okta clients (the same HTTP requests they send), one of them refused. The demo's
 * requests are spread over the last hour by shifting each record's time as it is stored, so that the
 * rate chart has a shape; everything else is what the console shows for real traffic. Events are
 * delivered to a local webhook receiver that fails some first attempts and refuses one event for
 * good (a dead letter), for the Webhooks page.
 */
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { bearerToken, createMemoryStore, createScimServer, groupResourceType, userResourceType } from '@scimkit/core';
import { createNodeHandler } from '@scimkit/node';
import { createConsole, createMemoryLogStore, createRequestLog, passwordLogin, type LogStore } from '@scimkit/console';
import { createDeliveryLog, createEventDispatcher, webhookDelivery } from '@scimkit/events';
import { launchChromium } from '../test/browser/launch-chromium.js';

const PASSWORD = 'screenshots-password';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ENTRA = 'Microsoft.Identity.Provisioning/1.0';
const OKTA = 'Okta SCIM Client 1.0.0';
const out = fileURLToPath(new URL('../../../docs/images/', import.meta.url));

let shift = 0;
const memory = createMemoryLogStore();
const store: LogStore = { ...memory, append: (records) => memory.append(records.map((r) => ({ ...r, time: r.time - shift }))) };
const log = createRequestLog({ store });
const tokens = [
  { token: 'acme-entra-token', principal: 'entra-provisioning', tenant: 'acme' },
  { token: 'acme-okta-token', principal: 'okta-provisioning', tenant: 'acme' },
  { token: 'globex-entra-token', principal: 'entra-provisioning', tenant: 'globex' },
];
const scimStore = createMemoryStore();
const scim = createScimServer({ resourceTypes: [userResourceType, groupResourceType], store: scimStore, ...bearerToken({ tokens }), requestLog: log, events: {} });

// The webhook receiver: every third event's first attempt answered 503, one user's events refused with 410 (a dead letter).
const seen = new Set<string>();
let events = 0;
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const id = String(req.headers['webhook-id']);
    const body = Buffer.concat(chunks).toString('utf8');
    if (body.includes('"resourceId":"' + (ids[4] ?? '-') + '"') && body.includes('user.created')) return void res.writeHead(410).end();
    if (!seen.has(id)) {
      seen.add(id);
      if (events++ % 3 === 0) return void res.writeHead(503).end();
    }
    res.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const secret = `whsec_${Buffer.from('the screenshots secret, 32 bytes').toString('base64')}`;
const deliveries = createDeliveryLog();
const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/scim`;
const dispatcher = createEventDispatcher({
  outbox: scimStore.outbox!,
  consumer: 'webhook',
  // track: each call is an attempt; fetch: the receiver's status code of each
  deliver: deliveries.track(webhookDelivery({ endpoint: { url: hookUrl, secret }, fetch: deliveries.fetch() })),
  backoff: { baseMs: 5, maxMs: 20 },
  logger: { log: () => undefined },
});
const scimConsole = createConsole({
  log,
  scim,
  login: passwordLogin(PASSWORD),
  basePath: '/console',
  actions: true, // the Redeliver button; without it the page is read-only
  deliveries: deliveries.view({ outbox: scimStore.outbox!, consumer: 'webhook', dispatcher }),
});
const scimHandler = createNodeHandler(scim, { basePath: '/scim/v2' });
const consoleHandler = createNodeHandler(scimConsole, { basePath: '/console' });
const server = createServer((req, res) => scimHandler(req, res, () => consoleHandler(req, res)));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

async function call(token: string, agent: string, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${origin}/scim/v2${path}`, { method, headers: { authorization: `Bearer ${token}`, 'user-agent': agent, 'content-type': 'application/scim+json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
}

const people = ['Barbara Jensen', 'Alice Smith', 'Carlos Diaz', 'Dana Kim', 'Erik Larsen', 'Fatima Khan', 'Gus Novak', 'Hana Sato', 'Ivan Petrov', 'Julia Rossi', 'Kofi Mensah', 'Lena Braun'];
const ids: string[] = [];
// Entra's initial cycle an hour ago, then incremental cycles every few minutes.
for (const [i, person] of people.entries()) {
  shift = 58 * 60_000 - i * 20_000;
  const [given, family] = person.split(' ') as [string, string];
  const userName = `${given.toLowerCase()}.${family.toLowerCase()}@acme.example`;
  await call('acme-entra-token', ENTRA, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`);
  const created = await call('acme-entra-token', ENTRA, 'POST', '/Users', { schemas: [USER], userName, active: true, displayName: person, name: { givenName: given, familyName: family }, emails: [{ value: userName, type: 'work', primary: true }] });
  ids.push(String(created['id']));
  await log.flush();
}
shift = 50 * 60_000;
const engineering = await call('acme-entra-token', ENTRA, 'POST', '/Groups', { schemas: [GROUP], displayName: 'Engineering', members: ids.slice(0, 6).map((value) => ({ value })) });
await call('acme-entra-token', ENTRA, 'POST', '/Groups', { schemas: [GROUP], displayName: 'Sales', members: ids.slice(6, 10).map((value) => ({ value })) });
await log.flush();
for (let cycle = 0; cycle < 9; cycle++) {
  shift = (44 - cycle * 5) * 60_000;
  for (let k = 0; k < 3 + (cycle % 3); k++) await call('acme-entra-token', ENTRA, 'GET', `/Users/${ids[(cycle + k) % ids.length]}`);
  await call('acme-entra-token', ENTRA, 'PATCH', `/Users/${ids[cycle]}`, { schemas: [PATCH_OP], Operations: [{ op: 'Replace', value: { displayName: `${people[cycle]} (${['R&D', 'Sales', 'Ops'][cycle % 3]})`, active: cycle === 4 ? 'False' : 'True' } }] });
  if (cycle % 3 === 1) await call('acme-entra-token', ENTRA, 'PATCH', `/Users/${ids[cycle]}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'phoneNumbers[type eq "mobile"].value', value: '+1 555 0100' }] });
  if (cycle === 6) await call('acme-entra-token', ENTRA, 'PATCH', `/Groups/${String(engineering['id'])}`, { schemas: [PATCH_OP], Operations: [{ op: 'Remove', path: 'members', value: [{ value: ids[1] }] }] });
  await call('acme-okta-token', OKTA, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${people[cycle]?.split(' ')[0]?.toLowerCase()}@okta.example"`)}`);
  if (cycle === 2) await call('acme-okta-token', OKTA, 'POST', '/Users', { schemas: [USER], userName: 'barbara.jensen@acme.example', name: { givenName: 'Barbara', familyName: 'Jensen' } });
  await log.flush();
}
shift = 20 * 60_000;
await call('globex-entra-token', ENTRA, 'POST', '/Users', { schemas: [USER], userName: 'mia.wong@globex.example', displayName: 'Mia Wong' });
await log.flush();
shift = 0;
await dispatcher.runOnce();

const browser = await launchChromium({ viewport: { width: 1280, height: 860 } });
try {
  mkdirSync(out, { recursive: true });
  const page = await browser.context.newPage();
  await page.goto(`${origin}/console/login`);
  await page.screenshot({ path: `${out}console-login.png` });
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${origin}/console/`);
  await page.goto(`${origin}/console/?tenant=acme`);
  await page.screenshot({ path: `${out}console-overview.png`, fullPage: true });
  await page.goto(`${origin}/console/requests?tenant=acme`);
  await page.screenshot({ path: `${out}console-requests.png` });
  await page.locator('tbody tr', { hasText: '(hint)' }).first().getByRole('link').click();
  await page.screenshot({ path: `${out}console-refused-request.png`, fullPage: true });
  await page.goto(`${origin}/console/requests?tenant=acme&status=2xx`);
  await page.locator('tbody tr', { hasText: 'PATCH' }).first().getByRole('link').click();
  await page.screenshot({ path: `${out}console-request-diff.png`, fullPage: true });
  await page.goto(`${origin}/console/users?tenant=acme`);
  await page.screenshot({ path: `${out}console-users.png` });
  await page.goto(`${origin}/console/groups/${String(engineering['id'])}?tenant=acme`);
  await page.screenshot({ path: `${out}console-group.png`, fullPage: true });
  await page.goto(`${origin}/console/webhooks?tenant=acme`);
  await page.screenshot({ path: `${out}console-webhooks.png`, fullPage: true });
  await page.goto(`${origin}/console/webhooks?tenant=acme&state=dead`);
  await page.getByRole('table', { name: 'Deliveries' }).getByRole('link').first().click();
  await page.screenshot({ path: `${out}console-webhook-delivery.png`, fullPage: true });
  console.log(`screenshots written to ${out}`);
} finally {
  await browser.close();
  server.closeAllConnections();
  server.close();
  receiver.closeAllConnections();
  receiver.close();
  await log.close();
}
