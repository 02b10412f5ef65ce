import { createScimClient, type ScimExchange, type ScimResourceType, type ScimSchema, type ServiceProviderConfig } from '@scimkit/client';
import { CheckFailure, CheckNotApplicable, type Check, type CheckResult, type Idp, type Tag } from './check.js';
import { createCheckContext, isObject } from './check-context.js';
import { ALL_CHECKS } from './checks/index.js';
import { summarize } from './exchange-summary.js';

export interface CheckOptions {
  /** The SCIM base URL, e.g. `http://127.0.0.1:8080/scim/v2`. */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer <token>`; also turns on the 401 check. */
  readonly token?: string;
  /** Extra headers on every request. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Per request. Default 10,000 ms. */
  readonly timeoutMs?: number;
  /** Only the checks with these tags (the clean-up always runs). */
  readonly tags?: readonly Tag[];
  /** Leave out the checks that imitate the other identity providers. */
  readonly onlyIdp?: Idp;
  /** Create, change and delete resources. Default: only when the server is on this machine (localhost, 127.0.0.0/8, ::1). */
  readonly allowWrites?: boolean;
  /** The checks to run (default every check); for tests and custom suites. */
  readonly checks?: readonly Check[];
  /** Called as each check starts and ends (the terminal's progress line). */
  readonly onProgress?: (event: ProgressEvent) => void;
  readonly fetch?: typeof fetch;
}

export type ProgressEvent =
  | { readonly type: 'start'; readonly check: Check; readonly index: number; readonly total: number }
  | { readonly type: 'result'; readonly result: CheckResult; readonly index: number; readonly total: number };

export interface CheckReport {
  readonly baseUrl: string;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly writes: boolean;
  readonly results: readonly CheckResult[];
  readonly summary: { readonly passed: number; readonly failed: number; readonly skipped: number };
}

/** The exception for a base URL that answers nothing usable: the CLI exits 2 on it. */
export class UnreachableServerError extends Error {}

/** True for localhost, 127.0.0.0/8 and ::1: where writes are allowed without `--allow-writes`. */
export function isLoopback(baseUrl: string): boolean {
  const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Discovers the server, then runs every selected check in order and deletes what the checks
 * created. Never throws for what the server answers (that is a failed check); throws
 * UnreachableServerError when `/ServiceProviderConfig` cannot be fetched at all.
 */
export async function runChecks(options: CheckOptions): Promise<CheckReport> {
  const started = Date.now();
  const allowWrites = options.allowWrites ?? isLoopback(options.baseUrl);
  let last: ScimExchange | undefined;
  const created: { endpoint: string; id: string }[] = [];
  const client = createScimClient({
    baseUrl: options.baseUrl,
    ...(options.token === undefined ? {} : { auth: options.token }),
    ...(options.headers === undefined ? {} : { headers: options.headers }),
    timeoutMs: options.timeoutMs ?? 10_000,
    retry: { retries: 2, maxDelayMs: 10_000 },
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    onExchange: (exchange) => {
      last = exchange;
      trackCreated(exchange, client.baseUrl, created);
    },
  });

  const discovery = await discover(client.request.bind(client));
  const ctx = createCheckContext({ client, ...discovery, prefix: `scimkit-check-${Math.random().toString(36).slice(2, 8)}`, authenticated: options.token !== undefined });

  const selected = (options.checks ?? ALL_CHECKS).filter(
    (check) => (options.tags === undefined || options.tags.length === 0 || options.tags.includes(check.tag)) && (options.onlyIdp === undefined || check.idp === undefined || check.idp === options.onlyIdp),
  );
  const total = selected.length + 1;
  const results: CheckResult[] = [];
  try {
    for (const [index, check] of selected.entries()) {
      options.onProgress?.({ type: 'start', check, index, total });
      last = undefined;
      const result = await runOne(check, ctx, allowWrites, () => last);
      results.push(result);
      options.onProgress?.({ type: 'result', result, index, total });
    }
  } finally {
    const cleanup = cleanupCheck([...ctx.tracked, ...created]);
    options.onProgress?.({ type: 'start', check: cleanup, index: total - 1, total });
    const result = await runOne(cleanup, ctx, true, () => last);
    results.push(result);
    options.onProgress?.({ type: 'result', result, index: total - 1, total });
  }
  return {
    baseUrl: client.baseUrl,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    writes: allowWrites,
    results,
    summary: {
      passed: results.filter((r) => r.status === 'pass').length,
      failed: results.filter((r) => r.status === 'fail').length,
      skipped: results.filter((r) => r.status === 'skip').length,
    },
  };
}

async function runOne(check: Check, ctx: Parameters<Check['run']>[0], allowWrites: boolean, lastExchange: () => ScimExchange | undefined): Promise<CheckResult> {
  const base = { id: check.id, tag: check.tag, title: check.title, reference: check.reference, ...(check.idp === undefined ? {} : { idp: check.idp }) };
  const started = Date.now();
  const notApplicable = check.applies?.(ctx);
  if (notApplicable !== undefined) return { ...base, status: 'skip', reason: notApplicable, durationMs: 0 };
  if (check.writes && !allowWrites) return { ...base, status: 'skip', reason: 'writes resources: needs --allow-writes (the server is not on this machine)', durationMs: 0 };
  try {
    await check.run(ctx);
    return { ...base, status: 'pass', durationMs: Date.now() - started };
  } catch (error) {
    if (error instanceof CheckNotApplicable) return { ...base, status: 'skip', reason: error.message, durationMs: Date.now() - started };
    const exchange = error instanceof CheckFailure ? (error.exchange ?? lastExchange()) : lastExchange();
    const failure =
      error instanceof CheckFailure
        ? { message: error.message, expected: error.expected, ...(error.scimkitOption === undefined ? {} : { scimkitOption: error.scimkitOption }) }
        : { message: error instanceof Error ? `${error.name}: ${error.message}` : String(error), expected: 'an answer within the timeout' };
    return { ...base, status: 'fail', failure: { ...failure, ...(exchange === undefined ? {} : { exchange: summarize(exchange) }) }, durationMs: Date.now() - started };
  }
}

/** Deletes what the run created (newest first, so groups go before their members) and checks each is gone. */
function cleanupCheck(tracked: readonly { endpoint: string; id: string }[]): Check {
  const unique = [...new Map(tracked.map((entry) => [`${entry.endpoint} ${entry.id}`, entry])).values()].reverse();
  return {
    id: 'cleanup.deleted',
    tag: 'cleanup',
    title: 'Every resource the checks created is deleted',
    reference: 'RFC 7644 §3.6 (scimkit check leaves the server as it found it)',
    writes: true,
    applies: () => (unique.length === 0 ? 'the checks created nothing' : undefined),
    async run(ctx) {
      for (const { endpoint, id } of unique) await ctx.send('DELETE', `${endpoint}/${encodeURIComponent(id)}`);
      const left: string[] = [];
      let witness: ScimExchange | undefined;
      for (const { endpoint, id } of unique) {
        const exchange = await ctx.send('GET', `${endpoint}/${encodeURIComponent(id)}`);
        if (exchange.response.status !== 404) {
          left.push(`${endpoint}/${id}`);
          witness ??= exchange;
        }
      }
      if (left.length > 0) throw new CheckFailure(`${left.length} of ${unique.length} resources are still there after DELETE: ${left.slice(0, 10).join(', ')}`, '404 for each after its DELETE (RFC 7644 §3.6)', witness);
    },
  };
}

/** A 201 to a POST on a resource endpoint: remember the resource for the clean-up. */
function trackCreated(exchange: ScimExchange, baseUrl: string, created: { endpoint: string; id: string }[]): void {
  if (exchange.request.method !== 'POST' || exchange.response.status !== 201) return;
  const body = exchange.response.body;
  if (!isObject(body) || typeof body['id'] !== 'string') return;
  const path = exchange.request.url.slice(baseUrl.length).split('?')[0] ?? '';
  if (/^\/[^/]+$/.test(path) && path !== '/Bulk') created.push({ endpoint: path, id: body['id'] });
}

async function discover(send: (init: { method: string; path: string }) => Promise<ScimExchange>): Promise<{ config: ServiceProviderConfig; schemas: ScimSchema[]; resourceTypes: ScimResourceType[] }> {
  let config: ScimExchange;
  try {
    config = await send({ method: 'GET', path: '/ServiceProviderConfig' });
  } catch (error) {
    throw new UnreachableServerError(`Cannot reach the server: ${error instanceof Error ? error.message : String(error)}`);
  }
  const list = async <T>(path: string): Promise<T[]> => {
    try {
      const body = (await send({ method: 'GET', path })).response.body;
      return isObject(body) && Array.isArray(body['Resources']) ? (body['Resources'] as T[]) : [];
    } catch {
      return [];
    }
  };
  if (config.response.status === 401 || config.response.status === 403) {
    // Discovery may need the token; the checks will say so. Nothing advertised means nothing optional checked.
  }
  const body = config.response.body;
  return { config: isObject(body) ? (body as ServiceProviderConfig) : {schemas: []}, schemas: await list<ScimSchema>('/Schemas'), resourceTypes: await list<ScimResourceType>('/ResourceTypes') };
}
