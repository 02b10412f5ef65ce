import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_PASSWORD, ENTRA_TOKEN, scimCall, startConsoleApp, type ConsoleApp } from '../console-app.js';
import { ENTRA_USER_AGENT, PATCH_OP, USER } from '../entra-flow.js';
import { launchChromium, type Browser } from './launch-chromium.js';

/**
 * Every page of the console, in Chromium: the document's language, one `h1`, landmarks, every
 * control with an accessible name, every table with column headers, the chart with a text
 * alternative; and from the keyboard: the skip link first, then into the page, a form sent with Enter.
 */
let app: ConsoleApp;
let browser: Browser;
let receiver: Server;
const pages: string[] = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(204).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  app = await startConsoleApp({ actions: true, webhook: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` });
  const created = await scimCall(app.origin, ENTRA_TOKEN, ENTRA_USER_AGENT, 'POST', '/Users', { schemas: [USER], userName: 'a11y@example.com' });
  const id = String(created.body['id']);
  await scimCall(app.origin, ENTRA_TOKEN, ENTRA_USER_AGENT, 'PATCH', `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'phoneNumbers[type eq "mobile"].value', value: '+1 555 0100' }] });
  const group = await scimCall(app.origin, ENTRA_TOKEN, ENTRA_USER_AGENT, 'POST', '/Groups', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'Readers', members: [{ value: id }] });
  await app.dispatcher?.runOnce();
  await app.log.flush();
  const records = (await app.log.query({ tenant: '' })).records;
  pages.push('/console/', '/console/requests', ...records.map((r) => `/console/requests/${r.id}`), '/console/users', `/console/users/${id}`, '/console/groups', `/console/groups/${String(group.body['id'])}`, '/console/webhooks');
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  receiver?.closeAllConnections();
  await new Promise<void>((resolve) => (receiver === undefined ? resolve() : receiver.close(() => resolve())));
});

/** What the audit reads of a page, run in the page (a string: the test is compiled without the DOM's types). */
const AUDIT = `(() => {
  const named = (el) => (el.labels && el.labels.length > 0) || el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') || (el.textContent || '').trim() !== '';
  return {
    lang: document.documentElement.lang,
    h1: document.querySelectorAll('h1').length,
    main: document.querySelectorAll('main').length,
    nav: [...document.querySelectorAll('nav')].every((n) => n.hasAttribute('aria-label')),
    unnamed: [...document.querySelectorAll('input:not([type=hidden]), select, button, a')].filter((el) => !named(el)).map((el) => el.outerHTML.slice(0, 80)),
    headless: [...document.querySelectorAll('table')].filter((t) => t.querySelectorAll('th[scope=col]').length === 0).length,
    images: [...document.querySelectorAll('svg')].filter((s) => s.getAttribute('role') === 'img' && s.querySelector('title') === null).length,
    skip: document.querySelector('a.skip')?.getAttribute('href'),
  };
})()`;

describe('accessibility of the console in Chromium', () => {
  it('every page: lang, one h1, landmarks, named controls, table headers, a text alternative for the chart', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${app.origin}/console/login`);
    await page.getByLabel('Password').fill(CONSOLE_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${app.origin}/console/`);
    // A delivery's page: reached from the Webhooks list.
    await page.goto(`${app.origin}/console/webhooks`);
    const deliveryHref = await page.getByRole('table', { name: 'Deliveries' }).getByRole('link').first().getAttribute('href');
    const visited = [...pages, deliveryHref ?? ''];
    expect(visited.length).toBeGreaterThan(9);
    for (const path of visited) {
      const response = await page.goto(`${app.origin}${path}`);
      expect(response?.status(), path).toBe(200);
      const report = await page.evaluate(AUDIT);
      expect(report, path).toEqual({ lang: 'en', h1: 1, main: 1, nav: true, unnamed: [], headless: 0, images: 0, skip: '#main' });
    }
    await page.close();
  });

  it('from the keyboard: the skip link comes first and leads to the content; a filter is sent with Enter', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${app.origin}/console/requests`);
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(new URL(page.url()).hash).toBe('#main');
    // Tab from the content reaches the filter form's fields in order.
    const reached: string[] = [];
    for (let i = 0; i < 12 && !reached.includes('f-resource'); i++) {
      await page.keyboard.press('Tab');
      reached.push(await page.evaluate<string>("document.activeElement?.id ?? ''"));
    }
    expect(reached).toEqual(expect.arrayContaining(['f-status', 'f-user', 'f-client', 'f-resource']));
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.id')).toBe('f-since');
    await page.keyboard.press('ArrowDown'); // the next choice: the last 15 minutes
    await page.locator('#f-user').focus();
    await page.keyboard.type('a11y');
    await page.keyboard.press('Enter');
    await page.waitForURL(/userName=a11y/);
    expect(new URL(page.url()).searchParams.get('since')).toBe('15m');
    expect(await page.locator('tbody tr').count()).toBe(2);
    await page.close();
  });
});
