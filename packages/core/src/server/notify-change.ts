import type { ChangeEvent } from './scim-server-config.js';
import type { ServerContext } from './server-context.js';

/**
 * Tell the application about a committed change. The hook is awaited; a throw or rejection is
 * reported to the logger and never changes the response (the change is already stored).
 */
export async function notifyChange(context: ServerContext, event: ChangeEvent): Promise<void> {
  const hook = context.config.onChange;
  if (hook === undefined) return;
  try {
    await hook(event);
  } catch (error) {
    reportError(context, 'scimkit: the onChange hook failed', error);
  }
}

/**
 * Report to the configured logger without ever letting the logger itself break a response. An
 * async logger's rejection is swallowed too: left unhandled, it would end the Node process.
 */
export function reportError(context: ServerContext, message: string, error: unknown): void {
  try {
    const outcome: unknown = context.logger.error(message, error);
    if (typeof outcome === 'object' && outcome !== null && typeof (outcome as { then?: unknown }).then === 'function') {
      (outcome as PromiseLike<unknown>).then(undefined, () => undefined);
    }
  } catch {
    // A broken logger must not turn a handled failure into an unhandled one.
  }
}
