import { httpError, ScimException, scimError, type ScimError } from '../../../errors/scim-error.js';
import { URN } from '../../../schema/urns.js';
import { logScopeOfExchange, type Exchange } from '../../request/exchange.js';
import { resourceLocation } from '../../response/present-resource.js';
import { readJsonBody } from '../../request/read-json-body.js';
import { route, type Endpoint } from '../../request/route.js';
import type { ScimRequest, ScimResponse } from '../../request/scim-request.js';
import { errorBody, errorResponse, jsonResponse, SCIM_MEDIA_TYPE } from '../../response/serialize.js';
import { unexpectedFailure } from '../../response/store-failure.js';
import { bulkReferences, resolveReferences } from './bulk-references.js';
import { parseBulkRequest, type BulkOperation } from './bulk-request.js';

/** Answers one routed request; Bulk hands each operation to the same dispatcher as a single request. */
export type Dispatch = (exchange: Exchange, endpoint: Endpoint) => Promise<ScimResponse>;

/** One element of a BulkResponse's `Operations` (RFC 7644 §3.7.3). */
interface BulkResult {
  readonly method: string;
  readonly bulkId?: string;
  readonly version?: string;
  readonly location?: string;
  readonly status: string;
  readonly response?: unknown;
}

/** A result, and for a successful POST the id it created (what its bulkId now stands for). */
interface Outcome {
  readonly result: BulkResult;
  readonly created?: string;
}

/**
 * `POST /Bulk` (RFC 7644 §3.7). Each operation becomes the single request it describes and goes
 * through the same dispatch (validation, `If-Match` from `version`, hooks, `onChange`); nothing is
 * implemented twice. Operations run in request order, except that one referencing `bulkId:x` waits
 * until the POST with bulkId `x` has run (RFC 7644 §3.7.2), whose id then replaces the reference.
 * References that form a cycle are 409 (RFC 7644 §3.7.1); one to a bulkId no POST declares is 400,
 * one to a POST that failed is 409. After `failOnErrors` errors, the rest are not performed. The
 * answer is 200 with a result per performed operation, in request order.
 */
export async function postBulk(exchange: Exchange, dispatch: Dispatch): Promise<ScimResponse> {
  const limits = exchange.context.bulk;
  if (limits === undefined) return errorResponse(httpError(501, '/Bulk is not implemented by this service'));
  const body = readJsonBody(exchange.context, exchange.request, {
    maxBytes: limits.maxPayloadSize,
    detail: `The size of the bulk operation exceeds the maxPayloadSize (${limits.maxPayloadSize}).`,
  }, exchange.recording);
  if (!body.ok) return errorResponse(body.error);
  const request = parseBulkRequest(body.value);
  if (!request.ok) return errorResponse(request.error);
  const { operations, failOnErrors } = request.value;
  if (operations.length > limits.maxOperations) {
    return errorResponse(httpError(413, `The bulk request has ${operations.length} operations, more than the maxOperations (${limits.maxOperations}).`));
  }

  const { plan, declared } = planOperations(operations);
  const ids = new Map<string, string>();
  const failed = new Set<string>();
  const results = new Map<number, BulkResult>();
  let errors = 0;
  const settle = (operation: BulkOperation, { result, created }: Outcome): void => {
    results.set(operation.index, result);
    if (Number(result.status) >= 400) errors++;
    // Only the POST that declares a bulkId settles it (a duplicate declaration is itself a 400).
    if (operation.bulkId === undefined || declared.get(operation.bulkId) !== operation.index) return;
    if (created === undefined) failed.add(operation.bulkId);
    else ids.set(operation.bulkId, created);
  };

  const pending = [...operations];
  while (pending.length > 0 && (failOnErrors === undefined || errors < failOnErrors)) {
    const at = pending.findIndex((operation) => ready(plan.get(operation.index), ids, failed));
    if (at < 0) {
      // Nothing can run: every remaining operation waits on a cycle of references.
      const operation = pending.shift() as BulkOperation;
      settle(operation, failure(operation, { status: 409, detail: `${where(operation)}: its bulkId references form a cycle that cannot be resolved (RFC 7644 §3.7.1)` }));
      continue;
    }
    const [operation] = pending.splice(at, 1) as [BulkOperation];
    settle(operation, await perform(exchange, dispatch, operation, plan.get(operation.index), ids, failed));
  }
  const answered = [...results.entries()].sort(([a], [b]) => a - b).map(([, result]) => result);
  return jsonResponse(200, { schemas: [URN.bulkResponse], Operations: answered });
}

/** What each operation references, and a 400 for references no POST of the request declares. */
interface Plan {
  readonly references: ReadonlySet<string>;
  readonly error?: ScimError;
}

function planOperations(operations: readonly BulkOperation[]): { plan: Map<number, Plan>; declared: Map<string, number> } {
  const declared = new Map<string, number>();
  const plans = new Map<number, Plan>();
  for (const operation of operations) {
    if (operation.error !== undefined || operation.verb !== 'POST' || operation.bulkId === undefined) continue;
    if (declared.has(operation.bulkId)) {
      plans.set(operation.index, { references: new Set(), error: scimError('invalidValue', `${where(operation)}: bulkId ${JSON.stringify(operation.bulkId)} is declared by an earlier operation; bulkIds are unique within a request`) });
    } else {
      declared.set(operation.bulkId, operation.index);
    }
  }
  for (const operation of operations) {
    if (plans.has(operation.index) || operation.error !== undefined) continue;
    const references = bulkReferences(operation.path, operation.data);
    const unknown = [...references].find((bulkId) => !declared.has(bulkId));
    plans.set(operation.index, {
      references,
      ...(unknown === undefined ? {} : { error: scimError('invalidValue', `${where(operation)}: bulkId:${unknown} is not the bulkId of a POST operation of this request`) }),
    });
  }
  return { plan: plans, declared };
}

/** An operation can run once every bulkId it references is settled (created, or failed). */
function ready(plan: Plan | undefined, ids: ReadonlyMap<string, string>, failed: ReadonlySet<string>): boolean {
  if (plan === undefined || plan.error !== undefined) return true;
  for (const bulkId of plan.references) if (!ids.has(bulkId) && !failed.has(bulkId)) return false;
  return true;
}

async function perform(
  exchange: Exchange,
  dispatch: Dispatch,
  operation: BulkOperation,
  plan: Plan | undefined,
  ids: ReadonlyMap<string, string>,
  failed: ReadonlySet<string>,
): Promise<Outcome> {
  if (operation.error !== undefined) return failure(operation, operation.error);
  if (plan?.error !== undefined) return failure(operation, plan.error);
  const missing = [...(plan?.references ?? [])].find((bulkId) => failed.has(bulkId));
  if (missing !== undefined) return failure(operation, { status: 409, detail: `${where(operation)}: bulkId:${missing} was not created, its operation failed` });

  const { path, data } = resolveReferences(operation.path, operation.data, ids);
  const method = operation.verb as string;
  const routed = route(exchange.context, method, path);
  if (!routed.ok) return failure(operation, routed.error);
  const endpoint = routed.value;
  if (endpoint.operation !== 'create' && endpoint.operation !== 'replace' && endpoint.operation !== 'patch' && endpoint.operation !== 'delete') {
    return failure(operation, scimError('invalidValue', `${where(operation)}: ${method} ${path} is not a resource operation; Bulk performs POST, PUT, PATCH and DELETE on resource endpoints (RFC 7644 §3.7)`));
  }
  const request: ScimRequest = {
    method,
    path,
    query: {},
    headers: { 'content-type': SCIM_MEDIA_TYPE, ...(operation.version === undefined ? {} : { 'if-match': operation.version }) },
    ...(data === undefined ? {} : { body: data }),
    ...(exchange.request.baseUrl === undefined ? {} : { baseUrl: exchange.request.baseUrl }),
  };
  let response: ScimResponse;
  try {
    response = await dispatch({ ...exchange, request }, endpoint);
  } catch (error) {
    // As `handle` does for a single request: the operation fails, the ones before it stay done.
    if (error instanceof ScimException) return failure(operation, error.error);
    return failure(operation, unexpectedFailure(exchange.context, 'unexpected failure in a bulk operation', error, logScopeOfExchange(exchange)));
  }
  const location =
    response.headers['Location'] ??
    ('id' in endpoint ? resourceLocation(endpoint.type, endpoint.id, exchange.baseUrl) : undefined);
  const version = response.headers['ETag'];
  const result: BulkResult = {
    method: operation.method,
    ...(operation.bulkId === undefined ? {} : { bulkId: operation.bulkId }),
    ...(version === undefined || response.status >= 400 ? {} : { version }),
    ...(location === undefined || (endpoint.operation === 'create' && response.status >= 400) ? {} : { location }),
    status: String(response.status),
    ...(response.status >= 400 && response.body !== undefined ? { response: JSON.parse(response.body) as unknown } : {}),
  };
  if (endpoint.operation !== 'create' || response.status !== 201 || response.body === undefined) return { result };
  const { id } = JSON.parse(response.body) as { id?: unknown };
  return typeof id === 'string' ? { result, created: id } : { result };
}

function failure(operation: BulkOperation, error: ScimError): Outcome {
  return {
    result: {
      method: operation.method,
      ...(operation.bulkId === undefined ? {} : { bulkId: operation.bulkId }),
      status: String(error.status),
      response: errorBody(error),
    },
  };
}

function where(operation: BulkOperation): string {
  return `Operations[${operation.index}]`;
}
