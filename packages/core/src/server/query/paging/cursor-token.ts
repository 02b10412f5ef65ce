import { err, ok, type Result } from '../../../errors/result.js';
import { scimError } from '../../../errors/scim-error.js';
import type { PaginationSettings } from './pagination-settings.js';

/**
 * Where a cursor continues: an index (`startIndex` of the next page) when the store pages by index
 * only, or the store's own keyset cursor (`capabilities.cursor`).
 */
export type CursorPosition = { readonly kind: 'index'; readonly startIndex: number } | { readonly kind: 'store'; readonly cursor: string };

const MAX_TOKEN_LENGTH = 4096;
const MAC_BYTES = 16;

/**
 * An opaque RFC 9865 cursor: `base64url(payload).base64url(mac)`, only unreserved characters (RFC
 * 9865 §2). The payload holds the position and an expiry; the MAC (HMAC-SHA-256, truncated to 128
 * bits) covers the payload and `binding` (the query: resource type, filter, sort, tenant), so a
 * cursor altered, forged, or replayed under another query fails verification (RFC 9865 §5).
 */
export async function issueCursor(settings: PaginationSettings, binding: string, position: CursorPosition, now = Date.now()): Promise<string> {
  const payload = encodeText(JSON.stringify({ p: position.kind === 'index' ? position.startIndex : position.cursor, x: Math.floor(now / 1000) + settings.cursorTimeout }));
  const mac = await sign(settings, `${payload}.${binding}`);
  return `${payload}.${base64url(mac.subarray(0, MAC_BYTES))}`;
}

/** The position a cursor names: 400 invalidCursor unless this server issued it for this query, 400 expiredCursor when too old. */
export async function readCursor(settings: PaginationSettings, binding: string, token: string, now = Date.now()): Promise<Result<CursorPosition>> {
  const invalid = err(scimError('invalidCursor', 'The cursor is not valid for this query; start again without a cursor (RFC 9865 §2.1)'));
  if (token.length > MAX_TOKEN_LENGTH) return invalid;
  const parts = token.split('.');
  if (parts.length !== 2) return invalid;
  const [payload = '', mac = ''] = parts;
  const given = decodeBase64url(mac);
  if (given === undefined || given.length !== MAC_BYTES) return invalid;
  const expected = (await sign(settings, `${payload}.${binding}`)).subarray(0, MAC_BYTES);
  if (!sameBytes(given, expected)) return invalid;
  const text = decodeBase64url(payload);
  let fields: unknown;
  try {
    fields = text === undefined ? undefined : JSON.parse(new TextDecoder().decode(text));
  } catch {
    return invalid;
  }
  const { p, x } = (typeof fields === 'object' && fields !== null ? fields : {}) as { p?: unknown; x?: unknown };
  if (typeof x !== 'number') return invalid;
  if (Math.floor(now / 1000) > x) return err(scimError('expiredCursor', `The cursor expired; cursors stay valid for ${settings.cursorTimeout} seconds (RFC 9865 §2.1)`));
  if (typeof p === 'number' && Number.isSafeInteger(p) && p >= 1) return ok({ kind: 'index', startIndex: p });
  if (typeof p === 'string' && p !== '') return ok({ kind: 'store', cursor: p });
  return invalid;
}

async function sign(settings: PaginationSettings, text: string): Promise<Uint8Array> {
  const signature = await globalThis.crypto.subtle.sign('HMAC', await settings.key, new TextEncoder().encode(text));
  return new Uint8Array(signature);
}

/** Constant-time comparison of two MACs of equal length. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}

function encodeText(text: string): string {
  return base64url(new TextEncoder().encode(text));
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function decodeBase64url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    // Canonical encodings only: unused trailing bits set would give a second spelling of one cursor.
    return base64url(bytes) === text ? bytes : undefined;
  } catch {
    return undefined;
  }
}
