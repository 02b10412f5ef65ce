import type { AttributeDefinition } from '../../schema/attribute-definition.js';
import { comparisonKey, getKey, isJsonObject } from '../../values/index.js';

/** A JSON object (a member element). */
export type JsonRecord = Readonly<Record<string, unknown>>;

/** Whether a value is a JSON object (a member element). */
export const isRecord: (value: unknown) => value is JsonRecord = isJsonObject;

/** A sub-attribute of an element, by name, case-insensitively (RFC 7643 §2.1); exact spelling first. */
export const field: (element: JsonRecord, name: string) => unknown = getKey;

/**
 * The identity of a member: its `value` (the member's id) as its comparison key (`comparisonKey`:
 * NFC, lower-cased unless the schema says `members.value` is caseExact; RFC 7643 §4.2 does not:
 * "caseExact": false). Two elements with one key are the same member. Undefined for an element without a string `value`.
 */
export function memberKeyOf(members: AttributeDefinition): (element: unknown) => string | undefined {
  const fold = members.subAttributes?.find((sub) => sub.name === 'value')?.caseExact !== true;
  return (element) => {
    // Stored and validated elements use the schema's spelling: read it directly, else look it up.
    const direct = isRecord(element) ? element['value'] : undefined;
    const value = direct !== undefined ? direct : isRecord(element) ? field(element, 'value') : undefined;
    if (typeof value !== 'string') return undefined;
    return comparisonKey(value, !fold);
  };
}
