import { err, ok, type Result } from '../errors/result.js';
import { scimError } from '../errors/scim-error.js';
import { URN } from '../schema/urns.js';
import { inspectValue } from './json-value.js';
import { getKey, isJsonObject, findKey } from '../values/index.js';
import type { PatchOperation, PatchOpName } from './patch-operation.js';
import { operationAt } from './operation-at.js';
import type { ResolvedPatchOptions } from './patch-options.js';

const PATCH_OP_LOWER = URN.patchOp.toLowerCase();

/** The PatchOp message URN, matched ignoring case (as spelled, nearly always). */
function isPatchOpUrn(urn: unknown): boolean {
  return urn === URN.patchOp || (typeof urn === 'string' && urn.length === PATCH_OP_LOWER.length && urn.toLowerCase() === PATCH_OP_LOWER);
}

function toOpName(text: string): PatchOpName | undefined {
  switch (text.toLowerCase()) {
    case 'add':
      return 'add';
    case 'replace':
      return 'replace';
    case 'remove':
      return 'remove';
    default:
      return undefined;
  }
}

/**
 * Validates the PatchOp message (RFC 7644 §3.5.2): an object whose `schemas` lists
 * `urn:ietf:params:scim:api:messages:2.0:PatchOp` and whose `Operations` is a non-empty array of
 * `{op, path?, value?}`. Member names are matched ignoring case; `op` is case-insensitive.
 */
export function parsePatchRequest(body: unknown, options: ResolvedPatchOptions): Result<PatchOperation[]> {
  if (!isJsonObject(body)) return err(scimError('invalidSyntax', 'The PATCH request body must be a JSON object (RFC 7644 §3.5.2)'));

  const schemas = getKey(body, 'schemas');
  if (!Array.isArray(schemas) || !schemas.some(isPatchOpUrn)) {
    return err(scimError('invalidValue', `The PATCH request "schemas" must contain "${URN.patchOp}"`));
  }

  const operations = getKey(body, 'Operations');
  if (!Array.isArray(operations)) return err(scimError('invalidSyntax', 'The PATCH request must have an "Operations" array'));
  if (operations.length === 0 && !options.allowEmptyOperations) {
    return err(scimError('invalidValue', '"Operations" must contain at least one operation (RFC 7644 §3.5.2)'));
  }
  if (operations.length > options.maxOperations) {
    return err(scimError('invalidValue', `Too many operations: ${operations.length} > ${options.maxOperations}`));
  }

  const parsed: PatchOperation[] = [];
  for (let index = 0; index < operations.length; index++) {
    const result = parseOperation(operations[index], index);
    if (!result.ok) return result;
    parsed.push(result.value);
  }
  return ok(parsed);
}

function parseOperation(raw: unknown, index: number): Result<PatchOperation> {
  const at = operationAt(index);
  if (!isJsonObject(raw)) return err(scimError('invalidSyntax', `${at} must be an object`));

  const opText = getKey(raw, 'op');
  const op = typeof opText === 'string' ? toOpName(opText) : undefined;
  if (op === undefined) {
    return err(scimError('invalidSyntax', `${at}.op must be "add", "replace" or "remove"`));
  }

  const path = getKey(raw, 'path');
  if (path !== undefined && path !== null && typeof path !== 'string') {
    return err(scimError('invalidPath', `${at}.path must be a string`));
  }

  const valueKey = findKey(raw, 'value');
  const hasValue = valueKey !== undefined;
  const value = hasValue ? raw[valueKey] : undefined;
  if (!hasValue && op !== 'remove') return err(scimError('invalidValue', `${at}.value is required for "${op}"`));
  const problem = inspectValue(value);
  if (problem?.kind === 'forbidden') return err(scimError('invalidValue', `${at}.value: "${problem.key}" is not an attribute`));
  if (problem?.kind === 'depth') return err(scimError('invalidValue', `${at}.value is nested too deeply`));

  return ok(typeof path === 'string' ? { index, op, path, hasValue, value } : { index, op, hasValue, value });
}
