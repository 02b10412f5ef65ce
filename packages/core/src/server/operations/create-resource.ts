import { randomId } from '../random-id.js';
import { validateResource } from '../../schema/validate-resource.js';
import { selectionFromQuery } from '../attribute-selection.js';
import { actorOf, type Exchange } from '../exchange.js';
import { checkResourceSize } from '../limits/resource-size.js';
import { notifyChange } from '../notify-change.js';
import { presentResource, resourceLocation } from '../present-resource.js';
import { readJsonBody } from '../read-json-body.js';
import { assembleResource, createdMeta } from '../resource-meta.js';
import { errorResponse } from '../serialize.js';
import type { ScimResponse } from '../scim-request.js';
import { validationOptions, type ServedType } from '../server-context.js';
import { uniquenessError } from '../write-failure.js';
import { sentAttributes } from '../sent-attributes.js';
import { resourceResponse } from './resource-response.js';

/** `POST {endpoint}` (RFC 7644 §3.3): 201 with the created resource, `Location` and `ETag`. */
export async function createResource(exchange: Exchange, type: ServedType): Promise<ScimResponse> {
  const { context, request } = exchange;
  const selection = selectionFromQuery(request);
  if (!selection.ok) return errorResponse(selection.error);
  const body = readJsonBody(context, request);
  if (!body.ok) return errorResponse(body.error);
  const valid = validateResource(type.model, body.value, { operation: 'create' }, validationOptions(context));
  if (!valid.ok) return errorResponse(valid.error);

  const name = type.model.definition.name;
  const resource = assembleResource(valid.value, randomId(), createdMeta(name, new Date().toISOString()));
  const sized = checkResourceSize(resource, context.limits);
  if (!sized.ok) return errorResponse(sized.error);
  const written = await context.store.create(name, resource, { ...exchange.storeContext, unique: type.model.unique });
  if (!written.ok) {
    return errorResponse(written.reason === 'uniqueness' ? uniquenessError(written.attribute) : { status: 409, detail: 'The resource could not be created' });
  }
  const created = written.resource;
  const shown = { ...selection.value, sent: sentAttributes(type.model, valid.value) };
  const response = resourceResponse(201, presentResource(type, created, exchange.baseUrl, shown), created, resourceLocation(type, created.id, exchange.baseUrl));
  await notifyChange(context, { operation: 'create', resourceType: name, id: created.id, after: created, ...actorOf(exchange) });
  return response;
}

