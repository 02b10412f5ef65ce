import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CONSOLE_PASSWORD, ENTRA_TOKEN, scimCall, startConsoleApp, type ConsoleApp } from '../console-app.js';
import { ENTRA_USER_AGENT, USER } from '../entra-flow.js';
import { launchChromium, type Browser } from './launch-chromium.js';

/**
 * The Webhooks page in real headless Chromium, with JavaScript off (every form is plain HTML): an
 * event whose receiver answers 503 is dead-lettered after two attempts; the page shows the delivery,
 * its attempts with status code and error, and the dead letter; the receiver recovers and the
 * Redeliver button (a POST with the CSRF token) delivers it; a read-only console has no button and
 * refuses the POST.
 */
let app: ConsoleApp;
let readOnly: ConsoleApp;
let browser: Browser;
let receiver: Server;
let answer = 503;
const received: string[] = [];
const requested: string[] = [];

async function logIn(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/console/login`);
  await page.getByLabel('Password').fill(CONSOLE_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${origin}/console/`);
}

beforeAll(async () => {
  receiver = createServer((request, response) => {
    received.push(String(request.headers['webhook-id']));
    request.resume();
    request.on('end', () => response.writeHead(answer).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  app = await startConsoleApp({ actions: true, webhook: url });
  readOnly = await startConsoleApp({ webhook: url });
  for (const target of [app, readOnly]) {
    const created = await scimCall(target.origin, ENTRA_TOKEN, ENTRA_USER_AGENT, 'POST', '/Users', { schemas: [USER], userName: 'hook@example.com' });
    expect(created.status).toBe(201);
    await target.dispatcher?.runOnce();
    await target.log.flush();
  }
  expect(received).toHaveLength(4); // two attempts for each app, both answered 503
  browser = await launchChromium({ javaScriptEnabled: false });
  browser.context.on('request', (request) => requested.push(request.url()));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await readOnly?.close();
  receiver?.closeAllConnections();
  await new Promise<void>((resolve) => (receiver === undefined ? resolve() : receiver.close(() => resolve())));
});

describe('the Webhooks page in Chromium (JavaScript off)', () => {
  it('shows the dead-lettered delivery with its attempts, then redelivers it from the button', async () => {
    const page = await browser.context.newPage();
    await logIn(page, app.origin);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.waitForURL(/\/console\/webhooks/);
    const deliveries = page.getByRole('table', { name: 'Deliveries' });
    expect(await deliveries.locator('tbody tr').count()).toBe(1);
    const row = await deliveries.locator('tbody tr').textContent();
    expect(row).toContain('user.created');
    expect(row).toContain('dead-lettered');
    expect(row).toContain('503');
    const dead = page.getByRole('table', { name: 'Dead letters' });
    expect(await dead.textContent()).toContain('answered 503');

    // The detail: every attempt with its time, status code and error.
    await deliveries.getByRole('link', { name: 'user.created' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Delivery of user.created');
    const attempts = page.getByRole('table', { name: 'Attempts' });
    expect(await attempts.locator('tbody tr').count()).toBe(2);
    expect(await attempts.textContent()).toMatch(/failed\s*503/);

    // The receiver recovers; the Redeliver button posts the form (no script) and comes back with the outcome.
    answer = 204;
    await page.getByRole('button', { name: /^Redeliver event/ }).click();
    await page.waitForURL(/redelivered=/);
    expect(await page.getByRole('status').textContent()).toContain('was delivered again');
    expect(await attempts.locator('tbody tr').count()).toBe(3);
    expect(await attempts.locator('tbody tr').last().textContent()).toMatch(/\(redelivery\)\s*delivered\s*204/);
    expect(await page.locator('dl.facts').textContent()).toContain('delivered');
    await page.goto(`${app.origin}/console/webhooks`);
    expect(await page.getByRole('table', { name: 'Dead letters' }).count()).toBe(0);
    expect(await page.locator('main').textContent()).toContain('No dead letter');
    await page.close();
  });

  it('a read-only console shows the deliveries without a Redeliver button, and refuses the POST', async () => {
    const page = await browser.context.newPage();
    await logIn(page, readOnly.origin);
    await page.goto(`${readOnly.origin}/console/webhooks`);
    expect(await page.getByRole('table', { name: 'Deliveries' }).textContent()).toContain('dead-lettered');
    expect(await page.getByRole('button', { name: /Redeliver/ }).count()).toBe(0);
    expect(await page.locator('main').textContent()).toContain('Read-only');
    const csrf = await page.locator('header form input[name="csrf"]').getAttribute('value');
    const refused = await page.request.post(`${readOnly.origin}/console/actions/redeliver`, { form: { csrf: csrf ?? '', event: 'any' } });
    expect(refused.status()).toBe(403);
    await page.close();
  });

  it('made no request to any other origin', () => {
    expect(requested.length).toBeGreaterThan(5);
    expect(requested.filter((url) => ![app.origin, readOnly.origin].includes(new URL(url).origin))).toEqual([]);
  });
});
