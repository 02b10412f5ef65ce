import type { PaginationOptions } from '../../config/scim-server-config.js';

/** RFC 9865 paging as one server offers it; undefined when cursors are off (index paging only). */
export interface PaginationSettings {
  readonly defaultPaginationMethod: 'index' | 'cursor';
  /** Seconds a cursor stays valid. */
  readonly cursorTimeout: number;
  /** The HMAC key that signs cursors (Web Crypto, so the core runs on Node and Web runtimes alike). */
  readonly key: Promise<HmacKey>;
}

/** Web Crypto's `CryptoKey`, named through the global so no DOM typings are needed. */
export type HmacKey = Awaited<ReturnType<typeof globalThis.crypto.subtle.importKey>>;

const DEFAULT_CURSOR_TIMEOUT = 3600;
const MIN_SECRET_LENGTH = 32;

/** Resolve `pagination`. Throws a TypeError for a programmer error at start-up. */
export function resolvePagination(options: PaginationOptions | undefined): PaginationSettings | undefined {
  if (options === undefined || options.cursor === false) return undefined;
  const method = options.defaultPaginationMethod ?? 'index';
  if (method !== 'index' && method !== 'cursor') {
    throw new TypeError(`createScimServer: pagination.defaultPaginationMethod must be 'index' or 'cursor', got ${String(method)}`);
  }
  const timeout = options.cursorTimeout ?? DEFAULT_CURSOR_TIMEOUT;
  if (!Number.isSafeInteger(timeout) || timeout < 1) {
    throw new TypeError(`createScimServer: pagination.cursorTimeout must be a positive number of seconds, got ${String(timeout)}`);
  }
  const secret = options.cursorSecret;
  if (secret !== undefined && (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH)) {
    throw new TypeError(`createScimServer: pagination.cursorSecret must be a string of at least ${MIN_SECRET_LENGTH} characters`);
  }
  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined) throw new TypeError('createScimServer: cursor paging needs Web Crypto (globalThis.crypto.subtle)');
  const material = secret === undefined ? globalThis.crypto.getRandomValues(new Uint8Array(32)) : new TextEncoder().encode(secret);
  const key = subtle.importKey('raw', material, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  // A rejection surfaces on first use; this keeps it from being reported as unhandled before that.
  key.catch(() => undefined);
  return { defaultPaginationMethod: method, cursorTimeout: timeout, key };
}
