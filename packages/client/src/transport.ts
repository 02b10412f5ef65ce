import type { AuthProvider } from './auth.js';
import { ScimTimeoutError } from './errors.js';
import { retryAfterMs } from './retry-after.js';
import { retryPolicy, type RetryOptions, type RetryPolicy } from './retry-policy.js';
import { sleep } from './sleep.js';

/** One HTTP request to the SCIM service, relative to its base URL. */
export interface ScimRequestInit {
  readonly method: string;
  /** Path below the base URL, e.g. `/Users/2819c223` (segments already percent-encoded). */
  readonly path: string;
  /** Query parameters; undefined values are left out. */
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
  /** A JSON value (sent as `application/scim+json`) or, as a string, the body as it is. */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this request. */
  readonly timeoutMs?: number;
  /** `false`: no retries for this request. */
  readonly retry?: false;
}

/** What was sent and what came back: the unit the client hands to `onExchange`. */
export interface ScimExchange {
  readonly request: {
    readonly method: string;
    readonly url: string;
    readonly headers: Readonly<Record<string, string>>;
    /** The body text sent, if any. */
    readonly body?: string;
  };
  readonly response: {
    readonly status: number;
    readonly headers: Headers;
    /** The raw body text ('' when none). */
    readonly text: string;
    /** The body parsed as JSON; undefined when empty or not JSON. */
    readonly body: unknown;
  };
  /** How many attempts were made (1 without retries). */
  readonly attempts: number;
  readonly durationMs: number;
}

export interface TransportOptions {
  /** The service's base URL, e.g. `https://example.com/scim/v2`. */
  readonly baseUrl: string;
  readonly auth?: AuthProvider;
  /** Headers sent with every request. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Per attempt, from sending the request to the end of the body. Default 30,000 ms. */
  readonly timeoutMs?: number;
  /** Retries on 429/503 honouring `Retry-After`; `false` turns them off. */
  readonly retry?: RetryOptions | false;
  /** The `fetch` to use. Default `globalThis.fetch`. */
  readonly fetch?: typeof fetch;
  /** Called after every request with what was sent and received (logging, tests, `scimkit check`). */
  readonly onExchange?: (exchange: ScimExchange) => void;
}

export interface Transport {
  readonly baseUrl: string;
  send(init: ScimRequestInit): Promise<ScimExchange>;
}

const MEDIA_TYPE = 'application/scim+json';

export function createTransport(options: TransportOptions): Transport {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  try {
    new URL(baseUrl);
  } catch {
    throw new TypeError(`baseUrl must be an absolute URL, got ${JSON.stringify(options.baseUrl)}`);
  }
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const defaultTimeout = options.timeoutMs ?? 30_000;
  const policy: RetryPolicy = retryPolicy(options.retry);

  async function attempt(init: ScimRequestInit, url: string, headers: Record<string, string>, body: string | undefined, timeoutMs: number) {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new ScimTimeoutError(init.method, url, timeoutMs));
    }, timeoutMs);
    const onAbort = (): void => controller.abort(init.signal?.reason);
    if (init.signal?.aborted) onAbort();
    init.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await doFetch(url, { method: init.method, headers, ...(body === undefined ? {} : { body }), signal: controller.signal });
      const text = await response.text();
      return { status: response.status, headers: response.headers, text, body: parseJson(text) };
    } catch (error) {
      if (timedOut) throw new ScimTimeoutError(init.method, url, timeoutMs);
      throw error;
    } finally {
      clearTimeout(timer);
      init.signal?.removeEventListener('abort', onAbort);
    }
  }

  return {
    baseUrl,
    async send(init) {
      const url = buildUrl(baseUrl, init.path, init.query);
      const body = init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
      const base: Record<string, string> = { accept: `${MEDIA_TYPE}, application/json;q=0.9` };
      if (body !== undefined) base['content-type'] = MEDIA_TYPE;
      const started = Date.now();
      const retries = init.retry === false ? 0 : policy.retries;
      let reauthenticated = false;
      for (let attemptNo = 0; ; attemptNo++) {
        const auth = options.auth === undefined ? {} : await options.auth.headers(init.signal);
        const headers = lowerCaseKeys({ ...base, ...auth, ...options.headers, ...init.headers });
        const response = await attempt(init, url, headers, body, init.timeoutMs ?? defaultTimeout);
        const exchange: ScimExchange = {
          request: { method: init.method, url, headers, ...(body === undefined ? {} : { body }) },
          response,
          attempts: attemptNo + 1,
          durationMs: Date.now() - started,
        };
        if (response.status === 401 && options.auth?.invalidate !== undefined && !reauthenticated) {
          reauthenticated = true;
          options.onExchange?.(exchange);
          options.auth.invalidate(auth);
          continue;
        }
        if (attemptNo < retries && policy.statuses.includes(response.status)) {
          const asked = retryAfterMs(response.headers.get('retry-after'));
          const wait = asked ?? policy.baseDelayMs * 2 ** attemptNo;
          if (wait <= policy.maxDelayMs) {
            options.onExchange?.(exchange);
            await sleep(wait, init.signal);
            continue;
          }
        }
        options.onExchange?.(exchange);
        return exchange;
      }
    },
  };
}

/** `base + path + ?query`, the query encoded with encodeURIComponent (spaces as %20). */
export function buildUrl(baseUrl: string, path: string, query?: Readonly<Record<string, string | number | boolean | undefined>>): string {
  const params = Object.entries(query ?? {})
    .filter((entry): entry is [string, string | number | boolean] => entry[1] !== undefined)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  return `${baseUrl}${path.startsWith('/') ? path : `/${path}`}${params.length === 0 ? '' : `?${params.join('&')}`}`;
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) out[key.toLowerCase()] = value;
  return out;
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
