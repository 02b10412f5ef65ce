/**
 * Authentication hooks. SCIM leaves authentication to HTTP (RFC 7644 §2); most services take an
 * OAuth 2.0 bearer token (RFC 6750), either a long-lived one or one obtained with the client
 * credentials grant (RFC 6749 §4.4).
 */
export interface AuthProvider {
  /** Headers to add to a request (`Authorization: Bearer …`). Called before every attempt. */
  headers(signal?: AbortSignal): Promise<Record<string, string>> | Record<string, string>;
  /**
   * Called when the server answers 401 to a request sent with `rejected` (what `headers()` gave):
   * drop that cached token so that the next `headers()` obtains a new one. When present, the
   * client retries the request once after a 401.
   */
  invalidate?(rejected: Record<string, string>): void;
}

/** A static bearer token: `Authorization: Bearer <token>` (RFC 6750 §2.1). */
export function bearerAuth(token: string): AuthProvider {
  if (typeof token !== 'string' || token === '' || /[\r\n]/.test(token)) throw new TypeError('bearerAuth: the token must be a non-empty string on one line');
  const headers = { authorization: `Bearer ${token}` };
  return { headers: () => headers };
}

export interface ClientCredentialsOptions {
  /** The authorization server's token endpoint. */
  readonly tokenUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Space-separated scopes to request. */
  readonly scope?: string;
  /** Extra form parameters (`audience`, `resource`, …). */
  readonly parameters?: Readonly<Record<string, string>>;
  /** Send the credentials in the form body instead of HTTP Basic (RFC 6749 §2.3.1 allows both). Default false. */
  readonly credentialsInBody?: boolean;
  /** Renew this many seconds before `expires_in` runs out. Default 30. */
  readonly earlyRenewalSeconds?: number;
  readonly fetch?: typeof fetch;
}

/**
 * OAuth 2.0 client credentials grant (RFC 6749 §4.4): obtains a token from `tokenUrl`, caches it
 * until shortly before `expires_in`, shares one request between concurrent callers, and obtains a
 * new one after a 401.
 */
export function clientCredentialsAuth(options: ClientCredentialsOptions): AuthProvider {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const early = (options.earlyRenewalSeconds ?? 30) * 1000;
  let cached: { token: string; expires: number } | undefined;
  let pending: Promise<string> | undefined;

  async function obtain(signal?: AbortSignal): Promise<string> {
    const form = new URLSearchParams({ grant_type: 'client_credentials', ...options.parameters });
    if (options.scope !== undefined) form.set('scope', options.scope);
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    if (options.credentialsInBody) {
      form.set('client_id', options.clientId);
      form.set('client_secret', options.clientSecret);
    } else {
      // RFC 6749 §2.3.1: the id and secret are form-urlencoded before Basic encoding.
      const pair = `${formEncode(options.clientId)}:${formEncode(options.clientSecret)}`;
      headers['authorization'] = `Basic ${base64(pair)}`;
    }
    const response = await doFetch(options.tokenUrl, { method: 'POST', headers, body: form.toString(), ...(signal === undefined ? {} : { signal }) });
    const text = await response.text();
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // reported below
    }
    if (!response.ok || typeof body['access_token'] !== 'string') {
      const reason = typeof body['error'] === 'string' ? `${body['error']}${typeof body['error_description'] === 'string' ? `: ${body['error_description']}` : ''}` : text.slice(0, 200);
      throw new Error(`client credentials: ${options.tokenUrl} answered ${response.status}: ${reason}`);
    }
    const lifetime = typeof body['expires_in'] === 'number' ? body['expires_in'] * 1000 : 3_600_000;
    cached = { token: body['access_token'], expires: Date.now() + Math.max(0, lifetime - early) };
    return cached.token;
  }

  return {
    async headers(signal) {
      if (cached !== undefined && Date.now() < cached.expires) return { authorization: `Bearer ${cached.token}` };
      pending ??= obtain(signal).finally(() => {
        pending = undefined;
      });
      return { authorization: `Bearer ${await pending}` };
    },
    invalidate(rejected) {
      // Only the token that was refused: a concurrent request may have renewed it already.
      if (cached !== undefined && rejected['authorization'] === `Bearer ${cached.token}`) cached = undefined;
    },
  };
}

function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
