import type { ScimRequest, ScimServer } from '@scimkit/core';
import type { RequestLog } from '../log/request-log.js';
import type { ConsoleDeliveries } from './webhook-deliveries.js';

/**
 * Who may see the console: return true (or a name for the page header) to let the request in,
 * false to refuse it (403, or the login form with `login`). Required: the console never starts
 * open (docs/concepts/console.md, "Securing it").
 */
export type ConsoleAuthorize = (request: ScimRequest) => boolean | string | Promise<boolean | string>;

/** `createConsole()` options. */
export interface ConsoleOptions {
  /** The request log the console shows (the one given to `createScimServer({ requestLog })`). */
  readonly log: RequestLog;
  /** The authorization hook. Without one, `createConsole()` throws. */
  readonly authorize?: ConsoleAuthorize;
  /** A login form (`passwordLogin(password)`) for visitors `authorize` refuses. */
  readonly login?: ConsoleLogin;
  /** The SCIM server, for browsing users and groups with their membership. Absent: those pages are off. */
  readonly scim?: ScimServer;
  /**
   * Webhook deliveries to show (the Webhooks page: attempts, dead letters, and with `actions` a
   * redeliver button): `@scimkit/events`' `createDeliveryLog().view(...)`. Absent: no such page.
   */
  readonly deliveries?: ConsoleDeliveries;
  /** Where the console is mounted (`/console`): the prefix of every link it writes. Default `''`. */
  readonly basePath?: string;
  /** Allow the actions that change something (clearing a tenant's log, redelivering a webhook). Default false: read-only. */
  readonly actions?: boolean;
  /**
   * Key of the console's cookie signatures and CSRF tokens, at least 32 characters; give every
   * instance the same one. Default: random per process (sessions end on restart).
   */
  readonly secret?: string;
  /** Mark the cookie `Secure` (HTTPS only). Default true unless the request came over plain HTTP to localhost. */
  readonly secureCookie?: boolean;
  /** The name in the page header. Default `SCIM console`. */
  readonly title?: string;
}

/** A password login: the form, and the check of what it posts. */
export interface ConsoleLogin {
  /** Whether `password` is right (compare in constant time). */
  verify(password: string): boolean | Promise<boolean>;
  /** How long a session lasts, in milliseconds. Default 8 hours. */
  readonly sessionMs?: number;
}
