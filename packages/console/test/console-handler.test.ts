import { createMemoryStore, createScimServer, userResourceType } from '@scimkit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { CONSOLE_CSP, createConsole, createRequestLog } from '../src/index.js';
import { CONSOLE_PASSWORD, ENTRA_TOKEN, scimCall, startConsoleApp, type ConsoleApp } from './console-app.js';
import { ENTRA_USER_AGENT, PATCH_OP, USER } from './entra-flow.js';

let app: ConsoleApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** A browser-like client: keeps the console's cookie, sends same-origin headers on forms. */
function visitor(origin: string) {
  let cookie = '';
  const remember = (response: Response) => {
    const set = response.headers.get('set-cookie');
    if (set !== null) cookie = set.split(';')[0] as string;
  };
  return {
    get cookie() {
      return cookie;
    },
    async get(path: string) {
      const response = await fetch(`${origin}${path}`, { headers: cookie === '' ? {} : { cookie }, redirect: 'manual' });
      remember(response);
      return { status: response.status, headers: response.headers, text: await response.text() };
    },
    async post(path: string, form: Record<string, string>, headers: Record<string, string> = { origin, 'sec-fetch-site': 'same-origin' }) {
      const response = await fetch(`${origin}${path}`, { method: 'POST', body: new URLSearchParams(form).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie === '' ? {} : { cookie }), ...headers }, redirect: 'manual' });
      remember(response);
      return { status: response.status, headers: response.headers, text: await response.text() };
    },
  };
}

const csrfOf = (page: string): string => /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';

describe('the console handler', () => {
  it('refuses to start without an authorization hook', () => {
    const log = createRequestLog();
    expect(() => createConsole({ log })).toThrow(/authorization hook is required/);
    expect(() => createConsole({ log, authorize: () => true, secret: 'short' })).toThrow(/32 characters/);
  });

  it('refuses a visitor the hook refuses, and answers with a strict CSP', async () => {
    const log = createRequestLog();
    const console = createConsole({ log, authorize: (request) => request.headers?.['x-admin'] === 'yes' });
    const refused = await console.handle({ method: 'GET', path: '/requests', headers: {} });
    expect(refused.status).toBe(403);
    expect(refused.body).not.toContain('Requests');
    expect((await console.handle({ method: 'GET', path: '/api/requests', headers: {} })).status).toBe(401);
    const page = await console.handle({ method: 'GET', path: '/requests', headers: { 'x-admin': 'yes' } });
    expect(page.status).toBe(200);
    expect(page.headers['Content-Security-Policy']).toBe(CONSOLE_CSP);
    expect(CONSOLE_CSP).toContain("default-src 'none'");
    expect(page.body).not.toMatch(/<script/i);
    expect(page.headers['X-Frame-Options']).toBe('DENY');
  });

  it('logs in with the password, shows the requests, logs out; the login form needs its CSRF token', async () => {
    app = await startConsoleApp();
    const browser = visitor(app.origin);
    const first = await browser.get('/console/requests');
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/console/login');
    const form = await browser.get('/console/login');
    expect(form.text).toContain('type="password"');
    expect((await browser.post('/console/login', { password: CONSOLE_PASSWORD, csrf: 'forged' })).status).toBe(403);
    expect((await browser.post('/console/login', { password: 'wrong password!!', csrf: csrfOf(form.text) })).status).toBe(401);
    const login = await browser.post('/console/login', { password: CONSOLE_PASSWORD, csrf: csrfOf(form.text) });
    expect(login.status).toBe(303);
    expect(browser.cookie).toMatch(/^scimkit_console=/);
    expect(login.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Strict/);

    await scimCall(app.origin, ENTRA_TOKEN, ENTRA_USER_AGENT, 'POST', '/Users', { schemas: [USER], userName: 'bjensen@example.com' });
    await app.log.flush();
    const requests = await browser.get('/console/requests');
    expect(requests.status).toBe(200);
    expect(requests.text).toContain('POST /Users');
    expect(requests.text).toContain('bjensen@example.com');
    const api = JSON.parse((await browser.get('/console/api/requests')).text) as { records: { status: number }[] };
    expect(api.records.map((r) => r.status)).toEqual([201]);

    const logout = await browser.post('/console/logout', { csrf: csrfOf(requests.text) });
    expect(logout.status).toBe(303);
    expect((await browser.get('/console/requests')).status).toBe(303);
  });

  it('is read-only unless actions are enabled, and an action needs the CSRF token and the same origin', async () => {
    app = await startConsoleApp({ actions: false });
    const readOnly = visitor(app.origin);
    const form = await readOnly.get('/console/login');
    await readOnly.post('/console/login', { password: CONSOLE_PASSWORD, csrf: csrfOf(form.text) });
    const page = await readOnly.get('/console/requests');
    expect(page.text).not.toContain('Clear this tenant');
    expect((await readOnly.post('/console/actions/clear-log', { csrf: csrfOf(page.text) })).status).toBe(403);
    await app.close();

    app = await startConsoleApp({ actions: true });
    await scimCall(app.origin, ENTRA_TOKEN, ENTRA_USER_AGENT, 'GET', '/Users');
    await app.log.flush();
    const admin = visitor(app.origin);
    const login = await admin.get('/console/login');
    await admin.post('/console/login', { password: CONSOLE_PASSWORD, csrf: csrfOf(login.text) });
    const requests = await admin.get('/console/requests');
    expect(requests.text).toContain('Clear this tenant');
    expect((await admin.post('/console/actions/clear-log', {})).status).toBe(403);
    expect((await admin.post('/console/actions/clear-log', { csrf: csrfOf(requests.text) }, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await app.log.query({ tenant: '' })).records).toHaveLength(1);
    expect((await admin.post('/console/actions/clear-log', { csrf: csrfOf(requests.text) })).status).toBe(303);
    expect((await app.log.query({ tenant: '' })).records).toHaveLength(0);
  });

  it('shows users and groups with membership, through the SCIM server but not as client traffic', async () => {
    const log = createRequestLog();
    const scim = createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore(), requestLog: log });
    const created = await scim.handle({ method: 'POST', path: '/Users', body: JSON.stringify({ schemas: [USER], userName: 'alice@example.com', displayName: 'Alice' }) });
    const id = (JSON.parse(created.body ?? '{}') as { id: string }).id;
    await scim.handle({ method: 'PATCH', path: `/Users/${id}`, body: JSON.stringify({ schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'displayName', value: 'Alice A.' }] }) });
    const console = createConsole({ log, scim, authorize: () => 'admin' });
    const users = await console.handle({ method: 'GET', path: '/users', query: { q: 'alice' } });
    expect(users.body).toContain('alice@example.com');
    expect(users.body).toContain('Alice A.');
    const user = await console.handle({ method: 'GET', path: `/users/${id}` });
    expect(user.status).toBe(200);
    expect(user.body).toContain('Member of no group.');
    await log.flush();
    expect((await log.query({ tenant: '' })).records).toHaveLength(2);
  });

  it('browses users even where the scopes and rate limit of the application would refuse a client', async () => {
    const log = createRequestLog();
    const scim = createScimServer({
      resourceTypes: [userResourceType],
      store: createMemoryStore(),
      requestLog: log,
      authorize: () => ({ ok: false, scope: 'scim.read' }),
      admit: () => ({ status: 429, detail: 'slow down' }),
    });
    expect((await scim.handle({ method: 'GET', path: '/Users' })).status).toBe(403);
    const console = createConsole({ log, scim, authorize: () => true });
    const users = await console.handle({ method: 'GET', path: '/users' });
    expect(users.status).toBe(200);
    expect(users.body).toContain('0 users');
    expect(users.body).not.toContain('role="alert"');
  });
});
