import { ok } from '../../../errors/result.js';
import { validateResource } from '../../../schema/validate-resource.js';
import { selectionFromQuery } from '../../query/attribute-selection.js';
import { actorOf, type Exchange } from '../../request/exchange.js';
import { groupsLookup, membersOn, settleWholeGroup, withComputedAttributes } from '../../membership/index.js';
import { notifyChange } from '../../observe/notify-change.js';
import { ignoredReporter } from '../../observe/report-ignored.js';
import { presentResource } from '../../response/present-resource.js';
import { readJsonBody } from '../../request/read-json-body.js';
import { errorResponse } from '../../response/serialize.js';
import type { ScimResponse } from '../../request/scim-request.js';
import { validationOptions, type ServedType } from '../../config/server-context.js';
import { updateResource } from '../../write/update-resource.js';
import { sentAttributes } from '../../response/sent-attributes.js';
import { withEntry } from '../../../json/with-entry.js';
import { resourceResponse } from './resource-response.js';

/**
 * `PUT {endpoint}/{id}` (RFC 7644 §3.5.1): replace every writable attribute; attributes left out
 * are cleared, readOnly input is ignored, a changed immutable attribute is 400 mutability.
 * Checks run in the order docs/errors.md gives: JSON 400, lookup 404, `If-Match` 412, body 400, 409.
 */
export async function replaceResource(exchange: Exchange, type: ServedType, id: string): Promise<ScimResponse> {
  const { context, request } = exchange;
  const selection = selectionFromQuery(request, context.compatibility.valueFilterInAttributes);
  if (!selection.ok) return errorResponse(selection.error);
  const body = readJsonBody(context, request, undefined, exchange.recording);
  if (!body.ok) return errorResponse(body.error);
  const options = validationOptions(context, ignoredReporter(exchange, type.model.definition.name, 'replace', id));
  const membership = membersOn(exchange, type);
  const outcome = await updateResource(exchange, type, id, 'replace', async (existing) => {
    const valid = validateResource(type.model, body.value, { operation: 'replace', existing }, options);
    if (!valid.ok) return valid;
    if (membership === undefined) return ok({ body: valid.value });
    const settled = await settleWholeGroup(exchange, membership, body.value, existing.id, valid.value, existing);
    return settled.ok ? ok({ body: settled.value.body }) : settled;
  }, groupsLookup(exchange, type, selection.value));
  if (!outcome.ok) return errorResponse(outcome.error);
  const { before, after, changed } = outcome.value;
  // PUT replaces everything: what the stored resource holds is what the client sent.
  const [shown] = await withComputedAttributes(exchange, type, [after], selection.value);
  const response = resourceResponse(200, presentResource(type, shown ?? after, exchange.baseUrl, withEntry(selection.value, 'sent', sentAttributes(type.model, after))), after);
  if (changed) await notifyChange(exchange, { operation: 'replace', resourceType: type.model.definition.name, id: after.id, before, after, ...actorOf(exchange) });
  return response;
}
