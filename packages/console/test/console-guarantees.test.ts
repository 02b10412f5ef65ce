import { bearerToken, createMemoryStore, createScimServer, groupResourceType, userResourceType } from '@scimkit/core';
import { describe, expect, it } from 'vitest';
import { CONSOLE_CSS } from '../src/console/console-css.js';
import { createConsole, createMemoryLogStore, createRequestLog, type LogStore, type RequestLogRecord } from '../src/index.js';
import { entraRequest, provisionAsEntra } from './entra-flow.js';

const TOKEN = 'entra-secret-token-0123456789';

/** WCAG 2 relative luminance and contrast ratio of two `#rrggbb` colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string): number => {
    const [r, g, b2] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b2;
  };
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

describe('what the console promises (docs/concepts/console.md)', () => {
  it('keeps recording while the store prunes, however long pruning takes (pruned off the request path)', async () => {
    const memory = createMemoryLogStore();
    let prunes = 0;
    const store: LogStore = { ...memory, prune: () => (prunes++, new Promise<void>(() => undefined)) }; // a prune that never ends
    const log = createRequestLog({ store, pruneIntervalMs: 5 });
    const scim = createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore(), ...bearerToken({ tokens: [{ token: TOKEN, principal: 'entra-app' }] }), requestLog: log });
    await new Promise((resolve) => setTimeout(resolve, 30));
    const { statuses } = await provisionAsEntra(scim, TOKEN, 'pruned@example.com');
    expect(statuses).toEqual([201, 200, 400]);
    await log.flush();
    expect((await log.query({ tenant: '' })).records).toHaveLength(3);
    expect(prunes).toBe(1); // started once, and never again while it runs
    const closing = log.close();
    await expect(Promise.race([closing.then(() => 'closed'), new Promise((resolve) => setTimeout(() => resolve('stuck'), 1000))])).resolves.toBe('closed');
  });

  it('serves its assets itself, and no page links, loads or posts to another origin', async () => {
    const log = createRequestLog();
    const scim = createScimServer({ resourceTypes: [userResourceType, groupResourceType], store: createMemoryStore(), ...bearerToken({ tokens: [{ token: TOKEN, principal: 'entra-app' }] }), requestLog: log });
    const { id } = await provisionAsEntra(scim, TOKEN, 'assets@example.com');
    await log.flush();
    const scimConsole = createConsole({ log, scim, authorize: () => true, basePath: '/console', actions: true });
    const css = await scimConsole.handle({ method: 'GET', path: '/assets/console.css' });
    expect(css.headers?.['Content-Type']).toBe('text/css; charset=utf-8');
    expect(css.body).toBe(CONSOLE_CSS);
    expect((await scimConsole.handle({ method: 'GET', path: '/assets/icon.svg' })).headers?.['Content-Type']).toBe('image/svg+xml');
    expect(CONSOLE_CSS).not.toMatch(/url\(|@import/);
    const records = (await log.query({ tenant: '' })).records;
    const paths = ['/', '/requests', '/users', '/groups', `/users/${id}`, ...records.map((r) => `/requests/${r.id}`)];
    for (const path of paths) {
      const page = await scimConsole.handle({ method: 'GET', path });
      expect(page.status, path).toBe(200);
      const body = page.body ?? '';
      const urls = [...body.matchAll(/\b(?:href|src|action)="([^"]*)"/g)].map((m) => m[1] as string);
      expect(urls.length, path).toBeGreaterThan(3);
      expect(urls.filter((url) => !url.startsWith('/console/') && url !== '/console' && !url.startsWith('#')), path).toEqual([]);
      expect(body, path).not.toMatch(/<script|<iframe|\bstyle="/i);
    }
  });

  it('writes text and controls at WCAG AA contrast (4.5:1) on the backgrounds they are drawn on', () => {
    const vars = Object.fromEntries([...CONSOLE_CSS.matchAll(/--([a-z]+): (#[0-9a-f]{6})/g)].map((m) => [m[1], m[2]])) as Record<string, string>;
    const pairs: [string, string, string][] = [
      ['text', vars['fg']!, vars['bg']!],
      ['text on a panel', vars['fg']!, vars['panel']!],
      ['muted text', vars['muted']!, vars['bg']!],
      ['muted text on a panel', vars['muted']!, vars['panel']!],
      ['links', vars['link']!, vars['bg']!],
      ['links on a panel', vars['link']!, vars['panel']!],
      ['2xx, delivered', vars['ok']!, vars['bg']!],
      ['4xx, failing', vars['warn']!, vars['bg']!],
      ['5xx, dead-lettered', vars['bad']!, vars['bg']!],
      ['the hint', vars['warn']!, '#fff6e5'],
      ['the notice', vars['fg']!, '#e6f4ea'],
      ['removed in a diff', '#7a1712', '#fdecea'],
      ['added in a diff', '#0b4a1f', '#e6f4ea'],
      ['the header', '#ffffff', '#14212f'],
      ['buttons', '#ffffff', vars['link']!],
      ['danger buttons', '#ffffff', vars['bad']!],
      ['the current tenant', '#ffffff', vars['link']!],
    ];
    for (const [what, fg, bg] of pairs) expect(contrast(fg, bg), `${what}: ${fg} on ${bg}`).toBeGreaterThanOrEqual(4.5);
    // Every colour the stylesheet uses is one of these (a new one must join the list above).
    const used = new Set([...CONSOLE_CSS.matchAll(/#[0-9a-f]{6}\b/gi)].map((m) => m[0].toLowerCase()));
    const checked = new Set([...pairs.flatMap(([, fg, bg]) => [fg, bg]), vars['line'], vars['focus'], '#f9fafb', '#8fa3b8', '#7d8896', '#fff'].map((c) => String(c).toLowerCase()));
    expect([...used].filter((c) => !checked.has(c))).toEqual([]);
  });

  it('filters the request log by time (the Time filter, and the API)', async () => {
    const memory = createMemoryLogStore();
    const log = createRequestLog({ store: memory });
    const scim = createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore(), ...bearerToken({ tokens: [{ token: TOKEN, principal: 'entra-app' }] }), requestLog: log });
    await scim.handle(entraRequest('GET', '/Users', TOKEN));
    await log.flush();
    const [recent] = (await log.query({ tenant: '' })).records as [RequestLogRecord];
    await memory.append([{ ...recent, id: 'two-hours-ago', time: Date.now() - 2 * 3_600_000 }]);
    const scimConsole = createConsole({ log, authorize: () => true });
    const ids = async (query: Record<string, string>): Promise<string[]> => (JSON.parse((await scimConsole.handle({ method: 'GET', path: '/api/requests', query })).body ?? '{}') as { records: RequestLogRecord[] }).records.map((r) => r.id);
    expect(await ids({})).toHaveLength(2);
    expect(await ids({ since: '1h' })).toEqual([recent.id]);
    expect(await ids({ since: '24h' })).toHaveLength(2);
    const page = await scimConsole.handle({ method: 'GET', path: '/requests', query: { since: '1h' } });
    expect(page.body).toContain('<option value="1h" selected>last hour</option>');
    expect(page.body).not.toContain('two-hours-ago');
  });

  it('shows per tenant the clients seen with their last call, and the request and error rates as a chart', async () => {
    const log = createRequestLog();
    const tokens = [
      { token: 'acme-entra-0123456789', principal: 'entra-app', tenant: 'acme' },
      { token: 'globex-okta-0123456789', principal: 'okta-app', tenant: 'globex' },
    ];
    const scim = createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore(), ...bearerToken({ tokens }), requestLog: log });
    await provisionAsEntra(scim, 'acme-entra-0123456789', 'one@acme.example');
    const before = Date.now();
    await scim.handle({ ...entraRequest('GET', '/Users', 'globex-okta-0123456789'), headers: { authorization: 'Bearer globex-okta-0123456789', 'user-agent': 'Okta SCIM Client 1.0.0' } });
    await log.flush();
    const scimConsole = createConsole({ log, authorize: () => true });
    const acme = (await scimConsole.handle({ method: 'GET', path: '/', query: { tenant: 'acme' } })).body ?? '';
    const clients = /<table[^>]*>[\s\S]*?identity provider[\s\S]*?<\/table>/.exec(acme)?.[0] ?? '';
    expect(clients).toContain('entra-app');
    expect(clients).toContain('Microsoft Entra ID');
    expect(clients).not.toContain('okta-app'); // another tenant's client
    expect(clients).toMatch(/<time datetime="[^"]+">/);
    expect(acme).toContain('3 requests, 1 of them errors');
    const globex = (await scimConsole.handle({ method: 'GET', path: '/', query: { tenant: 'globex' } })).body ?? '';
    expect(globex).toContain('okta-app');
    expect(globex).not.toContain('entra-app');
    const [okta] = JSON.parse((await scimConsole.handle({ method: 'GET', path: '/api/clients', query: { tenant: 'globex' } })).body ?? '[]') as { client: string; lastCall: number; idp: string }[];
    expect(okta).toMatchObject({ client: 'okta-app', idp: 'Okta' });
    expect(okta?.lastCall).toBeGreaterThanOrEqual(before - 1000);
  });

  it('keeps in memory only what retention allows: by count, and by age', async () => {
    const memory = createMemoryLogStore({ maxRecords: 3, maxAgeMs: 60_000 });
    const at = (id: string, ago: number): RequestLogRecord => ({ id, tenant: '', requestId: id, time: Date.now() - ago, durationMs: 1, method: 'GET', path: '/Users', query: {}, status: 200, client: 'c', changes: [], requestHeaders: {} });
    await memory.append([at('old', 120_000), at('a', 3000), at('b', 2000), at('c', 1000)]);
    expect((await memory.query({ tenant: '' })).records.map((r) => r.id)).toEqual(['c', 'b', 'a']);
    await memory.append([at('d', 0)]);
    expect((await memory.query({ tenant: '' })).records.map((r) => r.id)).toEqual(['d', 'c', 'b']);
    const aging = createMemoryLogStore({ maxAgeMs: 60_000 });
    await aging.append([at('old', 120_000), at('new', 0)]);
    expect((await aging.query({ tenant: '' })).records.map((r) => r.id)).toEqual(['new']);
    await aging.prune();
    expect(await aging.get('', 'old')).toBeUndefined();
  });

  it('keeps in memory within maxBytes too: the oldest go first, the newest always stays', async () => {
    const sized = (id: string, chars: number): RequestLogRecord => ({ id, tenant: '', requestId: id, time: Date.now(), durationMs: 1, method: 'POST', path: '/Users', query: {}, status: 400, client: 'c', changes: [], requestHeaders: {}, requestBody: { text: 'x'.repeat(chars), bytes: chars, truncated: false } });
    const memory = createMemoryLogStore({ maxBytes: 5000 });
    await memory.append([sized('a', 2000), sized('b', 2000)]);
    expect((await memory.query({ tenant: '' })).records.map((r) => r.id)).toEqual(['b', 'a']);
    await memory.append([sized('c', 2000)]);
    expect((await memory.query({ tenant: '' })).records.map((r) => r.id)).toEqual(['c', 'b']);
    await memory.append([sized('huge', 9000)]);
    expect((await memory.query({ tenant: '' })).records.map((r) => r.id)).toEqual(['huge']);
    await memory.append([sized('d', 10)]);
    expect((await memory.query({ tenant: '' })).records.map((r) => r.id)).toEqual(['d']);
  });

  it('answers a record from memory exactly as it was stored, every field and change', async () => {
    const memory = createMemoryLogStore();
    const full: RequestLogRecord = {
      id: 'full',
      tenant: 'acme',
      requestId: 'req-1',
      time: Date.now(),
      durationMs: 1.234,
      method: 'POST',
      path: '/Bulk',
      query: { filter: 'userName eq "***"' },
      status: 409,
      scimType: 'uniqueness',
      detail: 'userName is not unique',
      client: 'token 1a2b3c4d',
      idp: 'Okta',
      userAgent: 'Okta SCIM Client 1.0.0',
      operation: 'bulk',
      resourceType: 'User',
      resourceId: 'u1',
      userName: 'bjensen',
      changes: [
        { operation: 'create', resourceType: 'User', id: 'u2', diff: [{ path: 'userName', after: '"bjensen"' }], versionAfter: 'W/"1"' },
        { operation: 'patch', resourceType: 'Group', id: 'g1', diff: [{ path: 'members[value eq "u2"]', after: '{}' }, { path: 'displayName', before: '"a"', after: '"b"' }], versionBefore: 'W/"3"', versionAfter: 'W/"4"', diffTruncated: true },
        { operation: 'delete', resourceType: 'User', id: 'u3', diff: [], versionBefore: 'W/"9"' },
      ],
      requestHeaders: { authorization: '[redacted]', 'user-agent': 'Okta SCIM Client 1.0.0' },
      requestBody: { text: '{"a":1}', bytes: 7, truncated: false },
      responseBody: { text: '{"detail":"userName is not unique"', bytes: 90_000, truncated: true },
      hint: { option: 'unknownAttributes', message: 'Set unknownAttributes.' },
    };
    const bare: RequestLogRecord = { id: 'bare', tenant: '', requestId: 'r', time: Date.now(), durationMs: 0, method: 'GET', path: '/Users/u1', query: {}, status: 200, client: 'anonymous', changes: [], requestHeaders: {} };
    await memory.append([full, bare]);
    expect(await memory.get('acme', 'full')).toStrictEqual(full);
    expect(await memory.get('', 'bare')).toStrictEqual(bare);
    expect((await memory.query({ tenant: 'acme', resourceId: 'g1' })).records).toStrictEqual([full]);
    expect(await memory.clients('acme')).toStrictEqual([{ client: 'token 1a2b3c4d', idp: 'Okta', userAgent: 'Okta SCIM Client 1.0.0', requests: 1, errors: 1, lastCall: full.time, lastStatus: 409 }]);
    await memory.clear('acme');
    expect(await memory.tenants()).toEqual(['']);
    expect(await memory.get('', 'bare')).toStrictEqual(bare);
  });

  it('answers a record whose texts hold any character as it was stored (a NUL, a lone surrogate, non-Latin text)', async () => {
    const memory = createMemoryLogStore();
    const odd: RequestLogRecord = {
      id: 'odd\u0000id',
      tenant: 't\u0000',
      requestId: 'r\ud800',
      time: Date.now(),
      durationMs: 0,
      method: 'PATCH',
      path: '/Users/\u0000/☃',
      query: { filter: 'displayName eq "\u0000"', 'x\u0000': '' },
      status: 200,
      client: 'c',
      userName: '',
      changes: [
        { operation: 'patch', resourceType: 'User', id: 'id\u0000s', diff: [{ path: 'displayName', before: '"\u0000"', after: '' }], versionBefore: '', versionAfter: 'W/"\u0000"' },
        { operation: 'replace', resourceType: 'User', id: '漢字', diff: [{ path: 'x' }], diffTruncated: false },
      ],
      requestHeaders: {},
      requestBody: { text: '', bytes: 0, truncated: false },
    };
    await memory.append([odd]);
    expect(await memory.get('t\u0000', 'odd\u0000id')).toStrictEqual(odd);
    const plain: RequestLogRecord = { ...odd, id: 'plain', changes: [{ operation: 'replace', resourceType: 'User', id: '漢字', diff: [{ path: 'x' }, { path: 'y', before: '"\ud800"' }], diffTruncated: false }] };
    await memory.append([plain]);
    expect(await memory.get('t\u0000', 'plain')).toStrictEqual(plain);
  });
});
