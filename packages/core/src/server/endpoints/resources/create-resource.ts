import type { ScimResource } from '../../../schema/scim-resource.js';
import { createdEvents } from '../../../events/derive-events.js';
import { randomId } from '../../write/random-id.js';
import { validateResource } from '../../../schema/validate-resource.js';
import { selectionFromQuery } from '../../query/attribute-selection.js';
import { checkBeforeWrite } from '../../write/before-write.js';
import { actorOf, writeKey, type Exchange } from '../../request/exchange.js';
import { membersOn, settleWholeGroup, withComputedAttributes } from '../../membership/index.js';
import { checkResourceSize } from '../../write/resource-size.js';
import { notifyChange } from '../../observe/notify-change.js';
import { ignoredReporter } from '../../observe/report-ignored.js';
import { presentResource, resourceLocation } from '../../response/present-resource.js';
import { readJsonBody } from '../../request/read-json-body.js';
import { assembleResource, createdMeta } from '../../write/resource-meta.js';
import { errorResponse } from '../../response/serialize.js';
import type { ScimResponse } from '../../request/scim-request.js';
import { validationOptions, type ServedType } from '../../config/server-context.js';
import { storeRefusalError, uniquenessError } from '../../write/write-failure.js';
import { sentAttributes } from '../../response/sent-attributes.js';
import { resourceResponse } from './resource-response.js';
import { withEntry } from '../../../json/with-entry.js';

/** `POST {endpoint}` (RFC 7644 §3.3): 201 with the created resource, `Location` and `ETag`. */
export async function createResource(exchange: Exchange, type: ServedType): Promise<ScimResponse> {
  const { context, request } = exchange;
  const selection = selectionFromQuery(request, context.compatibility.valueFilterInAttributes);
  if (!selection.ok) return errorResponse(selection.error);
  const body = readJsonBody(context, request, undefined, exchange.recording);
  if (!body.ok) return errorResponse(body.error);
  const name = type.model.definition.name;
  const id = randomId();
  const valid = validateResource(type.model, body.value, { operation: 'create' }, validationOptions(context, ignoredReporter(exchange, name, 'create', id)));
  if (!valid.ok) return errorResponse(valid.error);

  let attributes = valid.value;
  const membership = membersOn(exchange, type);
  if (membership !== undefined) {
    const settled = await settleWholeGroup(exchange, membership, body.value, id, attributes);
    if (!settled.ok) return errorResponse(settled.error);
    attributes = settled.value.body;
  }
  const resource = assembleResource(attributes, id, createdMeta(name, new Date().toISOString()));
  const sized = checkResourceSize(resource, context.limits);
  if (!sized.ok) return errorResponse(sized.error);
  const allowed = await checkBeforeWrite(exchange, { operation: 'create', resourceType: name, id, resource });
  if (!allowed.ok) return errorResponse(allowed.error);
  const events = context.events;
  const writeContext = withEntry(exchange.storeContext, 'unique', type.model.unique);
  const written = await context.store.create(
    name,
    resource,
    events === undefined ? writeContext : withEntry(writeContext, 'events', (stored: ScimResource) => createdEvents(events, actorOf(exchange), type.model, stored)),
  );
  if (!written.ok) {
    if (written.reason === 'uniqueness') return errorResponse(uniquenessError(written.attribute));
    if (written.reason === 'invalidValue') return errorResponse(storeRefusalError(written.detail));
    return errorResponse({ status: 409, detail: 'The resource could not be created' });
  }
  const created = written.resource;
  // The base a write of it may start from (ServerCaches.recent).
  if (context.caches.recent.enabled) context.caches.recent.remember(writeKey(exchange, name, created.id), created);
  // A new id is in no group, unless dangling references are accepted (a group may name it first).
  const [computed] = context.membership?.dangling === 'accept' ? await withComputedAttributes(exchange, type, [created], selection.value) : [created];
  const shown = withEntry(selection.value, 'sent', sentAttributes(type.model, valid.value));
  const response = resourceResponse(201, presentResource(type, computed ?? created, exchange.baseUrl, shown), created, resourceLocation(type, created.id, exchange.baseUrl));
  await notifyChange(exchange, { operation: 'create', resourceType: name, id: created.id, after: created, ...actorOf(exchange) });
  return response;
}
