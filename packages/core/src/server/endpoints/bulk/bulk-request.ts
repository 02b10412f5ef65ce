import { err, ok, type Result } from '../../../errors/result.js';
import { scimError, type ScimError } from '../../../errors/scim-error.js';
import { URN } from '../../../schema/urns.js';

/** The methods a bulk operation may use (RFC 7644 §3.7). */
export type BulkMethod = 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One operation of a BulkRequest, as understood; `error` when it is malformed (answered 400, never run). */
export interface BulkOperation {
  /** Position in the request's `Operations`. */
  readonly index: number;
  /** As the client spelled it (echoed in the response). */
  readonly method: string;
  readonly verb: BulkMethod | undefined;
  readonly path: string;
  readonly bulkId?: string;
  readonly version?: string;
  /** `data` as JSON text (bulkId references still in it), or undefined for DELETE. */
  readonly data?: string;
  readonly error?: ScimError;
}

export interface BulkRequest {
  /** Stop after this many errors (RFC 7644 §3.7); undefined: process every operation. */
  readonly failOnErrors?: number;
  readonly operations: readonly BulkOperation[];
}

const METHODS: readonly BulkMethod[] = ['POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * A BulkRequest body (RFC 7644 §3.7). A body that is not one (no object, no `Operations` array, a
 * wrong `schemas`, a bad `failOnErrors`) is 400 for the whole request; an operation that is not
 * well-formed becomes that operation's 400, so the others still run. `maxOperations` is checked
 * by the caller before anything runs.
 */
export function parseBulkRequest(body: unknown): Result<BulkRequest> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return err(scimError('invalidSyntax', 'A BulkRequest body must be a JSON object'));
  const fields = new Map(Object.entries(body).map(([key, value]) => [key.toLowerCase(), value as unknown]));
  const schemas = fields.get('schemas');
  if (schemas !== undefined && !(Array.isArray(schemas) && schemas.some((s) => typeof s === 'string' && s.toLowerCase() === URN.bulkRequest.toLowerCase()))) {
    return err(scimError('invalidValue', `schemas must contain ${URN.bulkRequest}`));
  }
  const operations = fields.get('operations');
  if (!Array.isArray(operations)) return err(scimError('invalidSyntax', 'A BulkRequest needs an "Operations" array (RFC 7644 §3.7)'));
  const failOnErrors = fields.get('failonerrors');
  if (failOnErrors !== undefined && failOnErrors !== null && !(Number.isSafeInteger(failOnErrors) && (failOnErrors as number) >= 1)) {
    return err(scimError('invalidValue', 'failOnErrors must be a positive integer (RFC 7644 §3.7)'));
  }
  return ok({
    ...(typeof failOnErrors === 'number' ? { failOnErrors } : {}),
    operations: operations.map((operation: unknown, index) => parseOperation(operation, index)),
  });
}

function parseOperation(input: unknown, index: number): BulkOperation {
  const at = `Operations[${index}]`;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { index, method: '', verb: undefined, path: '', error: scimError('invalidSyntax', `${at} must be a JSON object`) };
  }
  const fields = new Map(Object.entries(input).map(([key, value]) => [key.toLowerCase(), value as unknown]));
  const method = typeof fields.get('method') === 'string' ? (fields.get('method') as string) : '';
  const verb = METHODS.find((candidate) => candidate === method.toUpperCase());
  const path = typeof fields.get('path') === 'string' ? (fields.get('path') as string) : '';
  const bulkId = fields.get('bulkid');
  const version = fields.get('version');
  const data = fields.get('data');
  const base = {
    index,
    method,
    verb,
    path,
    ...(typeof bulkId === 'string' ? { bulkId } : {}),
    ...(typeof version === 'string' && version !== '' ? { version } : {}),
  };
  const fail = (error: ScimError): BulkOperation => ({ ...base, error });
  if (verb === undefined) return fail(scimError('invalidValue', `${at}: method must be POST, PUT, PATCH or DELETE (RFC 7644 §3.7)`));
  if (path === '' || !path.startsWith('/')) return fail(scimError('invalidValue', `${at}: path must be a resource path such as "/Users" (RFC 7644 §3.7)`));
  if (bulkId !== undefined && (typeof bulkId !== 'string' || bulkId === '')) return fail(scimError('invalidValue', `${at}: bulkId must be a non-empty string`));
  if (verb === 'POST' && bulkId === undefined) return fail(scimError('invalidValue', `${at}: bulkId is required when method is POST (RFC 7644 §3.7)`));
  if (version !== undefined && typeof version !== 'string') return fail(scimError('invalidValue', `${at}: version must be a string (an ETag)`));
  if (verb === 'DELETE') return base;
  if (data === undefined || data === null) return fail(scimError('invalidValue', `${at}: data is required when method is ${verb} (RFC 7644 §3.7)`));
  const text = dataText(verb, data);
  return text === undefined ? fail(scimError('invalidValue', `${at}: data is nested too deeply`)) : { ...base, data: text };
}

/**
 * `data` as the body of the single request. A PATCH `data` that is a bare array of operations
 * (the RFC 7644 §3.7.3 example) is read as the PatchOp message holding them.
 */
function dataText(verb: BulkMethod, data: unknown): string | undefined {
  const body = verb === 'PATCH' && Array.isArray(data) ? { schemas: [URN.patchOp], Operations: data } : data;
  try {
    return JSON.stringify(body);
  } catch {
    return undefined;
  }
}
