import { ok } from '../../../errors/result.js';
import { withEntry } from '../../../json/with-entry.js';
import { applyPatchWith } from '../../../patch/apply-patch.js';
import { validateResource } from '../../../schema/validate-resource.js';
import type { MultiValuedChange } from '../../../store/scim-store.js';
import { selectionFromQuery } from '../../query/attribute-selection.js';
import { actorOf, type Exchange } from '../../request/exchange.js';
import { groupsLookup, membersOn, patchMembers, settlePatchedGroup, withComputedAttributes } from '../../membership/index.js';
import { notifyChange } from '../../observe/notify-change.js';
import { ignoredReporter } from '../../observe/report-ignored.js';
import { presentResource } from '../../response/present-resource.js';
import { readJsonBody } from '../../request/read-json-body.js';
import { emptyResponse, errorResponse } from '../../response/serialize.js';
import { patchAnswersNoContent } from './patch-return.js';
import type { ScimResponse } from '../../request/scim-request.js';
import { patchOptions, validationOptions, type ServedType } from '../../config/server-context.js';
import { updateResource } from '../../write/update-resource.js';
import { assignPatch } from '../../write/assign-patch.js';
import type { ScimResource } from '../../../schema/scim-resource.js';
import { sentAttributes } from '../../response/sent-attributes.js';
import { resourceResponse } from './resource-response.js';

/**
 * `PATCH {endpoint}/{id}` (RFC 7644 §3.5.2): apply every operation or none, validate the result
 * as a whole, store it, answer 200 with the resource, or 204 with only its `ETag` when configured
 * or asked for (see patchAnswersNoContent). The same check order as PUT. The store is told what
 * changed in multi-valued attributes (`WriteContext.changes`): a group member added is one element
 * added, not a new group.
 */
export async function patchResource(exchange: Exchange, type: ServedType, id: string): Promise<ScimResponse> {
  const { context, request } = exchange;
  const selection = selectionFromQuery(request, context.compatibility.valueFilterInAttributes);
  if (!selection.ok) return errorResponse(selection.error);
  const body = readJsonBody(context, request, undefined, exchange.recording);
  if (!body.ok) return errorResponse(body.error);
  const options = patchOptions(context, ignoredReporter(exchange, type.model.definition.name, 'patch', id));
  const validation = validationOptions(context);
  const membership = membersOn(exchange, type);
  const client = membership === undefined ? undefined : patchMembers(membership, body.value);
  const noContent = patchAnswersNoContent(context, request, selection.value);
  const readBack = noContent ? undefined : groupsLookup(exchange, type, selection.value);
  const respond = async (after: ScimResource, before: ScimResource): Promise<ScimResponse> =>
    noContent
      ? emptyResponse(204, { ETag: after.meta.version })
      : resourceResponse(200, presentResource(type, (await withComputedAttributes(exchange, type, [after], selection.value))[0] ?? after, exchange.baseUrl, withEntry(selection.value, 'sent', sentAttributes(type.model, after, before))), after);
  // One store call when the store can apply the operations itself (assign-patch.ts).
  // (It never sets a multi-valued attribute, so a group's members are never among its operations.)
  const assigned = await assignPatch(exchange, type, id, body.value, options, validation, readBack);
  if (assigned !== undefined) {
    if (!assigned.ok) return errorResponse(assigned.error);
    const { after, changed, before } = assigned.value;
    // Nothing it may set is returned only when sent (`returned: "request"`): the resource as its own `before`.
    const response = await respond(after, after);
    // Only the request log takes this path and needs the change (needsNoBefore in assign-patch.ts).
    if (changed && before !== undefined) await notifyChange(exchange, { operation: 'patch', resourceType: type.model.definition.name, id: after.id, before, after, ...actorOf(exchange) });
    return response;
  }
  const outcome = await updateResource(exchange, type, id, 'patch', async (existing) => {
    const patched = applyPatchWith(type.model, existing, body.value, options, context.caches.elementKeys);
    if (!patched.ok) return patched;
    if (!patched.value.changed) return ok({ body: existing });
    const { resource, touched, changes: engineChanges } = patched.value;
    const valid = validateResource(type.model, resource, { operation: 'patch', existing, touched, changes: engineChanges }, validation);
    if (!valid.ok) return valid;
    if (membership === undefined || client === undefined) return ok({ body: valid.value, changes: engineChanges });
    const settled = await settlePatchedGroup(exchange, membership, client, existing, valid.value, patched.value);
    if (!settled.ok) return settled;
    const change = settled.value.change;
    // The engine's changes for members are replaced by what settling decided (none for a whole new list).
    const others = engineChanges.filter((candidate) => candidate.attribute !== membership.members.name);
    if (change === undefined) return ok({ body: settled.value.body, ...(others.length === 0 ? {} : { changes: others }) });
    const changes: MultiValuedChange[] = [...others, change];
    // Members were added or removed: the group changed, no whole-resource compare needed.
    const changed = change.added.length > 0 || change.removed.length > 0;
    return ok({ body: settled.value.body, changes, ...(changed ? { changed } : {}) });
  }, readBack);
  if (!outcome.ok) return errorResponse(outcome.error);
  const { before, after, changed } = outcome.value;
  const response = await respond(after, before);
  if (changed) await notifyChange(exchange, { operation: 'patch', resourceType: type.model.definition.name, id: after.id, before, after, ...actorOf(exchange) });
  return response;
}
