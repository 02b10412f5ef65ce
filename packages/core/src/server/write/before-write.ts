import { err, ok, type Result } from '../../errors/result.js';
import { httpError, isScimError, ScimException, type ScimError } from '../../errors/scim-error.js';
import { isScimType } from '../../errors/scim-type.js';
import { actorOf, type Exchange } from '../request/exchange.js';
import { reportError } from '../observe/notify-change.js';
import type { BeforeWriteEvent } from '../config/scim-server-config.js';

/**
 * Ask the `beforeWrite` hook whether a validated write may be committed. A returned or thrown
 * (`ScimException`) SCIM error refuses it and is answered as is; a status outside 400–599 or any
 * other throw is a programming error: a 500, reported to the logger. Nothing is stored either way.
 */
export async function checkBeforeWrite(exchange: Exchange, event: Omit<BeforeWriteEvent, 'principal' | 'tenant' | 'requestId'>): Promise<Result<void>> {
  const hook = exchange.context.config.beforeWrite;
  if (hook === undefined) return ok(undefined);
  const actor = actorOf(exchange);
  const scope = { requestId: actor.requestId, ...(actor.tenant === undefined ? {} : { tenant: actor.tenant }) };
  let outcome: unknown;
  try {
    outcome = await hook({ ...event, ...actor });
  } catch (error) {
    if (error instanceof ScimException && isRefusal(error.error)) return err(error.error);
    reportError(exchange.context, 'the beforeWrite hook failed', error, scope);
    return err(httpError(500, 'Internal server error'));
  }
  if (outcome === undefined || outcome === null) return ok(undefined);
  if (isRefusal(outcome)) return err(copy(outcome));
  reportError(exchange.context, 'the beforeWrite hook returned neither nothing nor a SCIM error', outcome, scope);
  return err(httpError(500, 'Internal server error'));
}

function isRefusal(value: unknown): value is ScimError {
  return (
    isScimError(value) &&
    Number.isInteger(value.status) &&
    value.status >= 400 &&
    value.status <= 599 &&
    (value.scimType === undefined || (typeof value.scimType === 'string' && isScimType(value.scimType)))
  );
}

/** Only the fields an error body carries, so a hook's object cannot add others. */
function copy(error: ScimError): ScimError {
  return { status: error.status, ...(error.scimType === undefined ? {} : { scimType: error.scimType }), detail: error.detail };
}
