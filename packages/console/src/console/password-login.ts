import { createHash, timingSafeEqual } from 'node:crypto';
import type { ConsoleLogin } from './console-options.js';

/**
 * A login form with one password (`SCIM_CONSOLE_PASSWORD` in the full reference server): the
 * posted password is compared with it in constant time (both hashed first, so their lengths do not
 * show). At least 12 characters.
 */
export function passwordLogin(password: string, options: { sessionMs?: number } = {}): ConsoleLogin {
  if (typeof password !== 'string' || password.length < 12) throw new TypeError('passwordLogin: the password must be at least 12 characters');
  const expected = createHash('sha256').update(password).digest();
  return {
    verify: (given) => timingSafeEqual(createHash('sha256').update(given).digest(), expected),
    ...(options.sessionMs === undefined ? {} : { sessionMs: options.sessionMs }),
  };
}
