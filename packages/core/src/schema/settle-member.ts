import { ok, type Result } from '../errors/result.js';
import type { AttributeDefinition } from './attribute-definition.js';
import { keepImmutable } from './keep-immutable.js';
import type { ValidationContext } from './validation-options.js';

/**
 * The one home of the rules that reconcile a validated value of `attribute` with the stored
 * resource's (`stored`, absent on create), used by the whole validation and by its PATCH fast path:
 * - readOnly (RFC 7643 §2.2): never taken from a request; a PATCH result keeps the stored value;
 * - writeOnly (password): a client can never read it back to repeat it in a PUT, so a replacement that
 *   leaves it out keeps the stored value (RFC 7644 §3.5.1 only says provided values replace it);
 * - immutable: see `keepImmutable` (400 mutability when changed).
 * With `shared` (an incremental PATCH validation), stored values are kept without a copy, and a value
 * that is the stored one itself needs no immutability check. The value to keep; undefined: none.
 * `prefix` precedes the attribute's name in error paths (`urn:…:` for an extension).
 */
export function settleMember(
  attribute: AttributeDefinition,
  value: unknown,
  stored: Readonly<Record<string, unknown>> | undefined,
  prefix: string,
  operation: ValidationContext['operation'],
  shared: boolean,
): Result<unknown> {
  const previous = stored === undefined ? undefined : own(stored, attribute.name);
  const present = previous !== undefined && previous !== null;
  if (attribute.mutability === 'readOnly') return ok(operation === 'patch' && present ? (shared ? previous : structuredClone(previous)) : undefined);
  if (operation === 'replace' && attribute.mutability === 'writeOnly' && value === undefined) return ok(present ? structuredClone(previous) : undefined);
  if (operation === 'create' || stored === undefined || (shared && value === previous)) return ok(value);
  return keepImmutable(attribute, value, previous, prefix + attribute.name, operation === 'patch' ? 'patch' : 'replace');
}

function own(object: Readonly<Record<string, unknown>>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;
}
