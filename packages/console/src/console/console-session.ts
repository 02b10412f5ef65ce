import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const COOKIE = 'scimkit_console';

/**
 * The console's one cookie: a random nonce (the CSRF token is derived from it), an expiry, and
 * whether the visitor logged in; signed with HMAC-SHA-256 so that it cannot be forged.
 */
export interface ConsoleSession {
  readonly nonce: string;
  readonly expires: number;
  readonly loggedIn: boolean;
}

export class SessionKeys {
  private readonly key: Buffer;

  constructor(secret: string | undefined) {
    if (secret !== undefined && secret.length < 32) throw new TypeError('createConsole: secret must be at least 32 characters');
    this.key = secret === undefined ? randomBytes(32) : Buffer.from(secret, 'utf8');
  }

  private sign(text: string): string {
    return createHmac('sha256', this.key).update(text).digest('base64url');
  }

  /** A new session (a fresh nonce). */
  create(loggedIn: boolean, lifetimeMs: number): ConsoleSession {
    return { nonce: randomBytes(18).toString('base64url'), expires: Date.now() + lifetimeMs, loggedIn };
  }

  encode(session: ConsoleSession): string {
    const body = `${session.nonce}.${session.expires}.${session.loggedIn ? 1 : 0}`;
    return `${body}.${this.sign(body)}`;
  }

  /** The session a cookie header carries, if it is ours, intact and not expired. */
  decode(cookieHeader: string | undefined): ConsoleSession | undefined {
    const value = cookieValue(cookieHeader, COOKIE);
    if (value === undefined) return undefined;
    const parts = value.split('.');
    if (parts.length !== 4) return undefined;
    const [nonce = '', expires = '', flag = '', signature = ''] = parts;
    if (!equal(this.sign(`${nonce}.${expires}.${flag}`), signature)) return undefined;
    const until = Number(expires);
    if (!Number.isFinite(until) || until < Date.now()) return undefined;
    return { nonce, expires: until, loggedIn: flag === '1' };
  }

  /** The CSRF token of a session: forms carry it, and an action is refused without it. */
  csrfToken(session: ConsoleSession): string {
    return this.sign(`csrf:${session.nonce}`);
  }

  checkCsrf(session: ConsoleSession | undefined, token: string | undefined): boolean {
    return session !== undefined && token !== undefined && equal(this.csrfToken(session), token);
  }
}

/** Constant-time comparison of two strings. */
export function equal(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

/** The Set-Cookie value of a session: HttpOnly, SameSite=Strict, scoped to the console's path. */
export function sessionCookie(value: string, path: string, secure: boolean, maxAgeSeconds: number): string {
  return `${COOKIE}=${value}; Path=${path === '' ? '/' : path}; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`;
}
