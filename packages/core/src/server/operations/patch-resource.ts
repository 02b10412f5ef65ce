import { ok } from '../../errors/result.js';
import { applyPatch } from '../../patch/apply-patch.js';
import { validateResource } from '../../schema/validate-resource.js';
import { selectionFromQuery } from '../attribute-selection.js';
import { actorOf, type Exchange } from '../exchange.js';
import { notifyChange } from '../notify-change.js';
import { presentResource } from '../present-resource.js';
import { readJsonBody } from '../read-json-body.js';
import { emptyResponse, errorResponse } from '../serialize.js';
import { patchAnswersNoContent } from './patch-return.js';
import type { ScimResponse } from '../scim-request.js';
import { patchOptions, validationOptions, type ServedType } from '../server-context.js';
import { updateResource } from '../update-resource.js';
import { sentAttributes } from '../sent-attributes.js';
import { resourceResponse } from './resource-response.js';

/**
 * `PATCH {endpoint}/{id}` (RFC 7644 §3.5.2): apply every operation or none, validate the result
 * as a whole, store it, answer 200 with the resource, or 204 with only its `ETag` when configured
 * or asked for (see patchAnswersNoContent). The same check order as PUT.
 */
export async function patchResource(exchange: Exchange, type: ServedType, id: string): Promise<ScimResponse> {
  const { context, request } = exchange;
  const selection = selectionFromQuery(request);
  if (!selection.ok) return errorResponse(selection.error);
  const body = readJsonBody(context, request);
  if (!body.ok) return errorResponse(body.error);
  const options = patchOptions(context);
  const validation = validationOptions(context);
  const outcome = await updateResource(exchange, type, id, (existing) => {
    const patched = applyPatch(type.model, existing, body.value, options);
    if (!patched.ok) return patched;
    if (!patched.value.changed) return ok(existing);
    const { resource, touched, changes } = patched.value;
    return validateResource(type.model, resource, { operation: 'patch', existing, touched, changes }, validation);
  });
  if (!outcome.ok) return errorResponse(outcome.error);
  const { before, after, changed } = outcome.value;
  const response = patchAnswersNoContent(context, request)
    ? emptyResponse(204, { ETag: after.meta.version })
    : resourceResponse(200, presentResource(type, after, exchange.baseUrl, { ...selection.value, sent: sentAttributes(type.model, after, before) }), after);
  if (changed) await notifyChange(context, { operation: 'patch', resourceType: type.model.definition.name, id: after.id, before, after, ...actorOf(exchange) });
  return response;
}
