import type { Result } from '../errors/result.js';
import { err, ok } from '../errors/result.js';
import { scimError } from '../errors/scim-error.js';
import type { AttributeDefinition } from './attribute-definition.js';
import { isJsonObject } from './validate-attribute-value.js';
import { isUnassigned, sameValue } from '../values/index.js';

/**
 * RFC 7644 §3.5.1: an `immutable` attribute that already has a value keeps it. A replacement whose
 * value differs is 400 mutability; one that leaves it out keeps the stored value (a PUT cannot clear
 * it). A PATCH result that changed or removed it is 400 mutability (RFC 7644 §3.5.2). With no stored
 * value, the new one is applied. Immutable sub-attributes of a single-valued complex attribute are
 * checked the same way; those of multi-valued ones (Group `members.value`) identify values that are
 * added or removed, not changed.
 */
export function keepImmutable(
  attribute: AttributeDefinition,
  next: unknown,
  previous: unknown,
  path: string,
  operation: 'replace' | 'patch',
): Result<unknown> {
  if (isUnassigned(previous)) return ok(next);
  if (attribute.mutability === 'immutable') {
    if (next === undefined) {
      return operation === 'replace'
        ? ok(structuredClone(previous))
        : err(scimError('mutability', `Attribute '${path}' is immutable and cannot be removed`));
    }
    if (!sameValue(attribute, next, previous)) return err(scimError('mutability', `Attribute '${path}' is immutable and cannot be changed`));
    return ok(next);
  }
  const subs = attribute.subAttributes ?? [];
  if (attribute.type !== 'complex' || attribute.multiValued || !isJsonObject(previous) || !subs.some((s) => s.mutability === 'immutable')) {
    return ok(next);
  }
  const current = isJsonObject(next) ? next : {};
  const out: Record<string, unknown> = {};
  for (const sub of subs) {
    const value = Object.prototype.hasOwnProperty.call(current, sub.name) ? current[sub.name] : undefined;
    const previousValue = Object.prototype.hasOwnProperty.call(previous, sub.name) ? previous[sub.name] : undefined;
    const kept = sub.mutability === 'immutable' ? keepImmutable(sub, value, previousValue, `${path}.${sub.name}`, operation) : ok(value);
    if (!kept.ok) return kept;
    if (kept.value !== undefined) out[sub.name] = kept.value;
  }
  return ok(Object.keys(out).length > 0 ? out : undefined);
}
