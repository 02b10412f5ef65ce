import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ScimServer } from '@scimkit/core';
import { createConsole, passwordLogin, type ConsoleDeliveries, type RequestLog } from '@scimkit/console';
import { createNodeHandler } from '@scimkit/node';

export interface ConsoleSetup {
  /** The request log given to `createScimServer({ requestLog })`. */
  readonly log: RequestLog;
  /** The console's login password (SCIM_CONSOLE_PASSWORD), at least 12 characters. */
  readonly password: string;
  /** Cookie and CSRF key shared by instances (SCIM_CONSOLE_SECRET, 32+ characters); default random. */
  readonly secret?: string;
  /** The webhook deliveries (with SCIM_WEBHOOK_URL): the console's Webhooks page. */
  readonly deliveries?: ConsoleDeliveries;
  /** Allow the console's actions (SCIM_CONSOLE_ACTIONS=1): redeliver a webhook, clear a tenant's log. */
  readonly actions?: boolean;
}

/**
 * The full server's request listener: SCIM at /scim/v2 and, with a console set-up, the console at
 * /console on the same port behind a login form (docs/concepts/console.md). Without one there is no
 * console: /console is a 404 like any other path. `next` answers every other path (the OAuth token
 * endpoint).
 */
export function fullServerListener(scim: ScimServer, console?: ConsoleSetup, next?: (req: IncomingMessage, res: ServerResponse) => void): (req: IncomingMessage, res: ServerResponse) => void {
  const scimHandler = createNodeHandler(scim, { basePath: '/scim/v2' });
  const rest = next === undefined ? undefined : (req: IncomingMessage, res: ServerResponse) => () => next(req, res);
  if (console === undefined) return (req, res) => scimHandler(req, res, rest?.(req, res));
  const consoleHandler = createNodeHandler(
    createConsole({
      log: console.log,
      scim,
      login: passwordLogin(console.password),
      basePath: '/console',
      actions: console.actions === true,
      ...(console.secret === undefined ? {} : { secret: console.secret }),
      ...(console.deliveries === undefined ? {} : { deliveries: console.deliveries }),
    }),
    { basePath: '/console' },
  );
  return (req, res) => scimHandler(req, res, () => consoleHandler(req, res, rest?.(req, res)));
}
