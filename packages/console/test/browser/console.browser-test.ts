import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CONSOLE_PASSWORD, ENTRA_TOKEN, OKTA_TOKEN, scimCall, startConsoleApp, type ConsoleApp } from '../console-app.js';
import { ENTRA_USER_AGENT, PATCH_OP, USER } from '../entra-flow.js';
import { launchChromium, type Browser } from './launch-chromium.js';

/**
 * The console in real headless Chromium: provision as Entra ID would (create, PATCH, a refused
 * request) and as Okta would, then find each in the console, open the detail, follow the diff to
 * the user, filter by userName; an unauthenticated visitor is refused; no request leaves the origin.
 */
let app: ConsoleApp;
let browser: Browser;
let userId: string;
const requested: string[] = [];
const cspViolations: string[] = [];

/** The request log's row whose status badge reads exactly `status` (an id or a time may hold the digits too). */
function rowWithStatus(page: Page, status: number) {
  return page.locator('tbody tr').filter({ has: page.locator('span.status', { hasText: new RegExp(`^${status}$`) }) });
}

async function logIn(page: Page): Promise<void> {
  await page.goto(`${app.origin}/console/requests`);
  expect(new URL(page.url()).pathname).toBe('/console/login');
  await page.getByLabel('Password').fill(CONSOLE_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${app.origin}/console/`);
}

beforeAll(async () => {
  app = await startConsoleApp();
  const created = await scimCall(app.origin, ENTRA_TOKEN, ENTRA_USER_AGENT, 'POST', '/Users', {
    schemas: [USER],
    userName: 'bjensen@example.com',
    password: 'Entra-initial-Pa55',
    active: true,
    name: { givenName: 'Barbara', familyName: 'Jensen' },
    emails: [{ value: 'bjensen@example.com', type: 'work', primary: true }],
  });
  expect(created.status).toBe(201);
  userId = String(created.body['id']);
  const patched = await scimCall(app.origin, ENTRA_TOKEN, ENTRA_USER_AGENT, 'PATCH', `/Users/${userId}`, { schemas: [PATCH_OP], Operations: [{ op: 'Replace', value: { active: 'False', displayName: 'Barbara J.' } }] });
  expect(patched.status).toBe(200);
  const refused = await scimCall(app.origin, ENTRA_TOKEN, ENTRA_USER_AGENT, 'PATCH', `/Users/${userId}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'phoneNumbers[type eq "mobile"].value', value: '+1 555 0100' }] });
  expect(refused.status).toBe(400);
  const okta = await scimCall(app.origin, OKTA_TOKEN, 'Okta SCIM Client 1.0.0', 'POST', '/Users', { schemas: [USER], userName: 'alice@example.com', name: { givenName: 'Alice', familyName: 'Smith' } });
  expect(okta.status).toBe(201);
  await app.log.flush();

  browser = await launchChromium();
  browser.context.on('request', (request) => requested.push(request.url()));
  browser.context.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('the console in Chromium', () => {
  it('refuses an unauthenticated visitor', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${app.origin}/console/requests`);
    expect(new URL(page.url()).pathname).toBe('/console/login');
    expect(await page.content()).not.toContain('bjensen');
    const api = await page.goto(`${app.origin}/console/api/requests`);
    expect(api?.status()).toBe(401);
    await page.close();
  });

  it('shows the Entra provisioning: each request, the refused one with its hint, the diff, the user, the userName filter', async () => {
    const page = await browser.context.newPage();
    await logIn(page);

    // The overview: both clients, recognized from their User-Agents.
    const clients = page.getByRole('table').filter({ hasText: 'identity provider' });
    await expect.poll(() => clients.textContent()).toContain('Microsoft Entra ID');
    expect(await clients.textContent()).toContain('Okta');
    expect(await page.locator('figure.chart svg').getAttribute('role')).toBe('img');

    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Requests' }).click();
    const rows = page.locator('tbody tr');
    expect(await rows.count()).toBe(4);
    const text = await page.locator('table').textContent();
    expect(text).toContain('POST /Users');
    expect(text).toMatch(/PATCH \/Users\/[^\s]+\s*\(hint\)/);

    // The refused request: noTarget, and the option that would accept Entra's shape.
    await rowWithStatus(page, 400).getByRole('link').click();
    await expect.poll(() => page.locator('h1').textContent()).toContain(`PATCH /Users/${userId}`);
    const hint = page.getByRole('note');
    expect(await hint.textContent()).toContain('createMissingValuePath');
    expect(await hint.textContent()).toContain('entra');
    expect(await page.locator('dl.facts').textContent()).toContain('noTarget');
    expect(await page.locator('pre').first().textContent()).toContain('phoneNumbers[type eq \\"mobile\\"].value');

    // The accepted PATCH: its diff, then the user it changed.
    await page.goBack();
    await rowWithStatus(page, 200).getByRole('link').first().click();
    const diff = page.locator('table.diff');
    expect(await diff.textContent()).toMatch(/active\s*true\s*false/);
    expect(await diff.textContent()).toContain('"Barbara J."');
    await page.getByRole('heading', { level: 3 }).getByRole('link', { name: `User ${userId}` }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('User bjensen@example.com');
    expect(await page.locator('pre').textContent()).toContain('Barbara J.');

    // The create: the password never reached the log.
    await page.goto(`${app.origin}/console/requests`);
    await rowWithStatus(page, 201).filter({ hasText: 'entra' }).getByRole('link').click();
    const body = await page.locator('pre').first().textContent();
    expect(body).toContain('"password": "[redacted]"');
    expect(await page.content()).not.toContain('Entra-initial-Pa55');
    expect(await page.content()).not.toContain(ENTRA_TOKEN);

    // Filter by userName, from the keyboard.
    await page.goto(`${app.origin}/console/requests`);
    await page.getByLabel('userName').fill('alice');
    await page.getByLabel('userName').press('Enter');
    await page.waitForURL(/userName=alice/);
    expect(await page.locator('tbody tr').count()).toBe(1);
    expect(await page.locator('tbody').textContent()).toContain('okta-provisioning');
    expect(await page.getByLabel('userName').inputValue()).toBe('alice');
    await page.close();
  });

  it('works with JavaScript disabled (every page is plain HTML)', async () => {
    const noScript = await launchChromium({ javaScriptEnabled: false });
    try {
      noScript.context.on('request', (request) => requested.push(request.url()));
      const page = await noScript.context.newPage();
      await logIn(page);
      await page.goto(`${app.origin}/console/requests?status=error`);
      expect(await page.locator('tbody tr').count()).toBe(1);
      await page.goto(`${app.origin}/console/users`);
      expect(await page.locator('tbody').textContent()).toContain('bjensen@example.com');
    } finally {
      await noScript.close();
    }
  });

  it('made no request to any other origin, and broke no Content Security Policy rule', () => {
    expect(requested.length).toBeGreaterThan(10);
    expect(requested.filter((url) => new URL(url).origin !== app.origin)).toEqual([]);
    expect(cspViolations).toEqual([]);
  });
});
