import type { ScimRequest, ScimResponse } from '@scimkit/core';
import { Redactor, compileRedaction } from '../log/redactor.js';
import { CONSOLE_CSS, CONSOLE_ICON } from './console-css.js';
import type { ConsoleOptions } from './console-options.js';
import { SessionKeys, sessionCookie, type ConsoleSession } from './console-session.js';
import { Directory } from './directory.js';
import { listPage, resourcePage } from './pages/directory-pages.js';
import { loginPage, refusedPage } from './pages/login-page.js';
import { overviewPage } from './pages/overview-page.js';
import type { PageContext } from './pages/page-context.js';
import { requestPage } from './pages/request-page.js';
import { deliveryPage, deliveryState, webhooksPage, type Redelivered } from './pages/webhooks-page.js';
import { logQueryOf, requestsPage, type RequestFilters } from './pages/requests-page.js';

/** The console: mounted like a SCIM server, through the same adapters (`{ handle(request) }`). */
export interface ScimConsole {
  handle(request: ScimRequest): Promise<ScimResponse>;
}

/**
 * The Content Security Policy of every answer: nothing but the console's own stylesheet and icon,
 * no script at all, forms posting only to the console, never framed.
 */
export const CONSOLE_CSP = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Security-Policy': CONSOLE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
});

const HTML = 'text/html; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';
const DEFAULT_SESSION_MS = 8 * 3600 * 1000;
const MAX_FORM_BYTES = 8192;

/**
 * The provisioning console (docs/concepts/console.md): server-rendered HTML pages over the request
 * log, and users and groups when given the SCIM server. Throws a TypeError without `authorize` or
 * `login`: the console is never open by default. Read-only unless `actions` is true; every action
 * is a POST carrying the session's CSRF token from a page of the same origin.
 */
export function createConsole(options: ConsoleOptions): ScimConsole {
  if (options === null || typeof options !== 'object' || options.log === undefined) throw new TypeError('createConsole: options.log (a createRequestLog()) is required');
  if (typeof options.authorize !== 'function' && options.login === undefined) {
    throw new TypeError('createConsole: an authorization hook is required (authorize, or login: passwordLogin(...)): the console is never open by default');
  }
  const base = (options.basePath ?? '').replace(/\/+$/, '');
  const title = options.title ?? 'SCIM console';
  const keys = new SessionKeys(options.secret);
  const directory = options.scim === undefined ? undefined : new Directory(options.scim);
  const redaction = compileRedaction(options.log.redaction);
  const sessionMs = options.login?.sessionMs ?? DEFAULT_SESSION_MS;
  const { log } = options;

  return {
    async handle(request) {
      try {
        return await serve(request);
      } catch {
        return answer(500, HTML, refusedPage(title, 500, 'The console failed to answer this request.'));
      }
    },
  };

  async function serve(request: ScimRequest): Promise<ScimResponse> {
    const method = String(request.method ?? 'GET').toUpperCase();
    const path = String(request.path ?? '/').replace(/\/+$/, '') || '/';
    const query = flatQuery(request.query);
    const cookieHeader = header(request, 'cookie');
    const session = keys.decode(cookieHeader);
    const secure = options.secureCookie ?? String(request.baseUrl ?? '').startsWith('https:');

    // Public: the stylesheet and the icon (no data in them).
    if (path === '/assets/console.css' && (method === 'GET' || method === 'HEAD')) return asset('text/css; charset=utf-8', CONSOLE_CSS);
    if (path === '/assets/icon.svg' && (method === 'GET' || method === 'HEAD')) return asset('image/svg+xml', CONSOLE_ICON);

    if (path === '/login' && options.login !== undefined) {
      const current = session ?? keys.create(false, sessionMs);
      const withCookie = session === undefined ? cookieFor(current, secure) : undefined;
      if (method === 'GET' || method === 'HEAD') return answer(200, HTML, loginPage(base, title, keys.csrfToken(current), false), withCookie);
      if (method !== 'POST') return answer(405, HTML, refusedPage(title, 405, 'Method not allowed'), undefined, { Allow: 'GET, POST' });
      const form = formOf(request);
      if (!sameOrigin(request) || !keys.checkCsrf(session, form.get('csrf') ?? undefined)) return answer(403, HTML, refusedPage(title, 403, 'This form is stale or was not sent from the console. Reload the login page and try again.'));
      if (!(await options.login.verify(form.get('password') ?? ''))) return answer(401, HTML, loginPage(base, title, keys.csrfToken(current), true));
      // A new session (a fresh nonce) on login: a token seen before logging in is worth nothing after.
      return redirect(`${base}/`, cookieFor(keys.create(true, sessionMs), secure));
    }

    const visitor = await authorized(request, session);
    if (visitor === false) {
      if (path.startsWith('/api/')) return answer(401, JSON_TYPE, JSON.stringify({ error: 'not authorized' }));
      if (options.login !== undefined && (method === 'GET' || method === 'HEAD')) return redirect(`${base}/login`);
      return answer(options.login !== undefined ? 401 : 403, HTML, refusedPage(title, options.login !== undefined ? 401 : 403, 'You may not see this console.'));
    }

    if (path === '/logout' && method === 'POST') {
      if (!sameOrigin(request) || !keys.checkCsrf(session, formOf(request).get('csrf') ?? undefined)) return answer(403, HTML, refusedPage(title, 403, 'Refused: no valid CSRF token.'));
      return redirect(options.login !== undefined ? `${base}/login` : `${base}/`, `scimkit_console=; Path=${base === '' ? '/' : base}; HttpOnly; SameSite=Strict; Max-Age=0${secure ? '; Secure' : ''}`);
    }

    // Every page carries the session's CSRF token; a visitor the application authorizes gets a session for it.
    const current = session ?? keys.create(false, sessionMs);
    const newCookie = session === undefined ? cookieFor(current, secure) : undefined;
    const tenants = await log.tenants();
    const tenant = query['tenant'] ?? tenants[0] ?? '';
    const ctx: PageContext = {
      base,
      title,
      tenant,
      tenants: tenants.includes(tenant) ? tenants : [...tenants, tenant].sort(),
      ...(typeof visitor === 'string' ? { who: visitor } : {}),
      csrf: keys.csrfToken(current),
      actions: options.actions === true,
      directory: directory !== undefined,
      webhooks: options.deliveries !== undefined,
      login: options.login !== undefined && session?.loggedIn === true,
    };

    if (method === 'POST' && path.startsWith('/actions/')) {
      if (options.actions !== true) return answer(403, HTML, refusedPage(title, 403, 'Actions are not enabled on this console (read-only).'), newCookie);
      if (!sameOrigin(request) || !keys.checkCsrf(session, formOf(request).get('csrf') ?? undefined)) return answer(403, HTML, refusedPage(title, 403, 'Refused: no valid CSRF token.'), newCookie);
      if (path === '/actions/clear-log') {
        await log.clear(tenant);
        return redirect(`${base}/requests?${new URLSearchParams({ tenant }).toString()}`);
      }
      if (path === '/actions/redeliver' && options.deliveries !== undefined) {
        const form = formOf(request);
        const eventId = (form.get('event') ?? '').slice(0, 200);
        if (eventId === '') return answer(400, HTML, refusedPage(title, 400, 'No event to redeliver.'), newCookie);
        const done = await options.deliveries.redeliver(tenant, eventId);
        const where = form.get('back') === 'detail' ? `/webhooks/${encodeURIComponent(eventId)}` : '/webhooks';
        return redirect(`${base}${where}?${new URLSearchParams({ tenant, redelivered: eventId, ok: done.ok ? '1' : '0' }).toString()}`);
      }
      return answer(404, HTML, refusedPage(title, 404, 'No such action.'), newCookie);
    }
    if (method !== 'GET' && method !== 'HEAD') return answer(405, HTML, refusedPage(title, 405, 'Method not allowed'), newCookie, { Allow: 'GET, HEAD' });

    const filters: RequestFilters = pick(query, ['status', 'userName', 'client', 'resourceId', 'since', 'after']);
    const redactor = new Redactor(redaction);
    if (path === '/') return answer(200, HTML, await overviewPage(ctx, log, query['window'] ?? '1h'), newCookie);
    if (path === '/requests') return answer(200, HTML, await requestsPage(ctx, log, filters), newCookie);
    if (path === '/api/requests') return answer(200, JSON_TYPE, JSON.stringify(await log.query(logQueryOf(tenant, filters, Number(query['limit'] ?? 50)))), newCookie);
    if (path === '/api/clients') return answer(200, JSON_TYPE, JSON.stringify(await log.clients(tenant)), newCookie);
    const one = /^\/(api\/)?requests\/([^/]+)$/.exec(path);
    if (one !== null) {
      const record = await log.get(tenant, decodeURIComponent(one[2] as string));
      if (record === undefined) return answer(404, one[1] ? JSON_TYPE : HTML, one[1] ? JSON.stringify({ error: 'no such record' }) : refusedPage(title, 404, 'No such request in the log (it may have been pruned).'), newCookie);
      return answer(200, one[1] ? JSON_TYPE : HTML, one[1] ? JSON.stringify(record) : requestPage(ctx, record), newCookie);
    }
    if (directory !== undefined && (path === '/users' || path === '/groups')) {
      const startIndex = Math.max(1, Math.floor(Number(query['startIndex'] ?? 1)) || 1);
      return answer(200, HTML, await listPage(ctx, directory, redactor, path === '/users' ? 'users' : 'groups', query['q'] ?? '', startIndex), newCookie);
    }
    if (options.deliveries !== undefined && (path === '/webhooks' || path.startsWith('/webhooks/'))) {
      const redelivered: Redelivered | undefined = query['redelivered'] === undefined || query['redelivered'] === '' ? undefined : { eventId: query['redelivered'].slice(0, 200), ok: query['ok'] === '1' };
      if (path === '/webhooks') return answer(200, HTML, await webhooksPage(ctx, options.deliveries, deliveryState(query['state']), redelivered), newCookie);
      const delivery = await options.deliveries.delivery(tenant, decodeURIComponent(path.slice('/webhooks/'.length)));
      if (delivery === undefined) return answer(404, HTML, refusedPage(title, 404, 'No such delivery (this instance keeps the newest ones since it started).'), newCookie);
      return answer(200, HTML, deliveryPage(ctx, delivery, redelivered), newCookie);
    }
    const resource = /^\/(users|groups)\/([^/]+)$/.exec(path);
    if (directory !== undefined && resource !== null) {
      const page = await resourcePage(ctx, directory, redactor, resource[1] as 'users' | 'groups', decodeURIComponent(resource[2] as string));
      if (page !== undefined) return answer(200, HTML, page, newCookie);
    }
    return answer(404, HTML, refusedPage(title, 404, 'No such page.'), newCookie);
  }

  async function authorized(request: ScimRequest, session: ConsoleSession | undefined): Promise<false | true | string> {
    if (session?.loggedIn === true) return 'Signed in';
    if (options.authorize === undefined) return false;
    const decision = await options.authorize(request);
    return decision === true || (typeof decision === 'string' && decision !== '') ? decision : false;
  }

  function cookieFor(session: ConsoleSession, secure: boolean): string {
    return sessionCookie(keys.encode(session), base, secure, Math.floor((session.expires - Date.now()) / 1000));
  }
}

function answer(status: number, type: string, body: string, cookie?: string, extra: Record<string, string> = {}): ScimResponse {
  const headers: Record<string, string> = { ...SECURITY_HEADERS, 'Content-Type': type, 'Cache-Control': 'no-store', ...extra };
  if (cookie !== undefined) headers['Set-Cookie'] = cookie;
  return { status, headers, body };
}

function asset(type: string, body: string): ScimResponse {
  return { status: 200, headers: { ...SECURITY_HEADERS, 'Content-Type': type, 'Cache-Control': 'public, max-age=3600' }, body };
}

function redirect(location: string, cookie?: string): ScimResponse {
  const headers: Record<string, string> = { ...SECURITY_HEADERS, Location: location, 'Cache-Control': 'no-store' };
  if (cookie !== undefined) headers['Set-Cookie'] = cookie;
  return { status: 303, headers, body: '' };
}

function header(request: ScimRequest, name: string): string | undefined {
  const headers = request.headers ?? {};
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() !== name) continue;
    const value = headers[key];
    return Array.isArray(value) ? value.join('; ') : (value as string | undefined);
  }
  return undefined;
}

/**
 * A state-changing request must come from a page of the console's own origin: the browser's
 * `Sec-Fetch-Site` (when sent) is `same-origin`, and `Origin` (when sent) names the request's host.
 */
function sameOrigin(request: ScimRequest): boolean {
  const site = header(request, 'sec-fetch-site');
  if (site !== undefined && site !== 'same-origin') return false;
  const origin = header(request, 'origin');
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === header(request, 'host');
  } catch {
    return false;
  }
}

function formOf(request: ScimRequest): URLSearchParams {
  const body = request.body;
  let text = '';
  if (typeof body === 'string') text = body;
  else if (body instanceof Uint8Array) text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  else if (body !== null && typeof body === 'object') return new URLSearchParams(Object.entries(body as Record<string, unknown>).map(([k, v]): [string, string] => [k, String(v)]));
  return new URLSearchParams(text.length > MAX_FORM_BYTES ? '' : text);
}

function flatQuery(query: ScimRequest['query']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(query ?? {})) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') out[key] = first;
  }
  return out;
}

function pick(query: Record<string, string>, names: readonly (keyof RequestFilters)[]): RequestFilters {
  const out: { -readonly [K in keyof RequestFilters]?: string } = {};
  for (const name of names) if (query[name] !== undefined && query[name] !== '') out[name] = query[name];
  return out;
}
