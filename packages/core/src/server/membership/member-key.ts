import type { AttributeDefinition } from '../../schema/attribute-definition.js';

/** A JSON object (a member element). */
export type JsonRecord = Readonly<Record<string, unknown>>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A sub-attribute of an element, by name, case-insensitively (RFC 7643 §2.1); exact spelling first. */
export function field(element: JsonRecord, name: string): unknown {
  if (Object.prototype.hasOwnProperty.call(element, name)) return element[name];
  const lower = name.toLowerCase();
  for (const key of Object.keys(element)) if (key.toLowerCase() === lower) return element[key];
  return undefined;
}

/**
 * The identity of a member: its `value` (the member's id), folded to lower case unless the schema
 * says `members.value` is caseExact (RFC 7643 §4.2 does not: "caseExact": false). Two elements with
 * one key are the same member. Undefined for an element without a string `value`.
 */
export function memberKeyOf(members: AttributeDefinition): (element: unknown) => string | undefined {
  const fold = members.subAttributes?.find((sub) => sub.name === 'value')?.caseExact !== true;
  return (element) => {
    // Stored and validated elements use the schema's spelling: read it directly, else look it up.
    const direct = isRecord(element) ? element['value'] : undefined;
    const value = direct !== undefined ? direct : isRecord(element) ? field(element, 'value') : undefined;
    if (typeof value !== 'string') return undefined;
    return fold ? value.toLowerCase() : value;
  };
}
