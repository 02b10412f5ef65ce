import { actorOf, writeKey, type Exchange } from '../exchange.js';
import { loadResource } from '../load-resource.js';
import { notifyChange } from '../notify-change.js';
import { checkIfMatch } from '../precondition.js';
import { emptyResponse, errorResponse } from '../serialize.js';
import type { ScimResponse } from '../scim-request.js';
import type { ServedType } from '../server-context.js';
import { ETAG_MISMATCH } from '../write-failure.js';

/**
 * `DELETE {endpoint}/{id}` (RFC 7644 §3.6): 204 with no body; 404 when unknown; with `If-Match`,
 * 412 unless it names the current version, checked and deleted atomically by the store.
 */
export async function deleteResource(exchange: Exchange, type: ServedType, id: string): Promise<ScimResponse> {
  const { context, request } = exchange;
  const name = type.model.definition.name;
  const outcome = await context.writes.run(writeKey(exchange, name, id), async () => {
    const loaded = await loadResource(context, type, id, exchange.storeContext);
    if (!loaded.ok) return loaded;
    const existing = loaded.value;
    const precondition = checkIfMatch(request, existing);
    if (!precondition.ok) return precondition;
    const expected = precondition.value === undefined ? undefined : existing.meta.version;
    const deleted = await context.store.delete(name, existing.id, expected, exchange.storeContext);
    if (deleted.ok) return { ok: true as const, value: existing };
    return { ok: false as const, error: deleted.reason === 'notFound' ? { status: 404, detail: '' } : ETAG_MISMATCH };
  });
  if (!outcome.ok) return errorResponse(outcome.error);
  await notifyChange(context, { operation: 'delete', resourceType: name, id: outcome.value.id, before: outcome.value, ...actorOf(exchange) });
  return emptyResponse(204);
}
