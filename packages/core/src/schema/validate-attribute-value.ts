import type { Result } from '../errors/result.js';
import { err, ok } from '../errors/result.js';
import type { ScimError } from '../errors/scim-error.js';
import { scimError } from '../errors/scim-error.js';
import type { AttributeDefinition } from './attribute-definition.js';
import { checkSimpleValue } from './check-simple-value.js';
import type { MemberBaseline } from './patch-baseline.js';
import { memoSlot, type ModelMemo } from './model-memo.js';

/** How values are validated: shared by every attribute of one `validateResource` call. */
export interface ValueRules {
  /** Drop readOnly sub-attributes from input (create and replace requests; RFC 7644 §3.3, §3.5.1). */
  readonly dropReadOnly: boolean;
  readonly unknownAttributes: 'reject' | 'ignore';
  /** Told each attribute dropped under `ignore`. */
  readonly onIgnored?: ((path: string) => void) | undefined;
  readonly stringBooleans: boolean;
  /** The model's memo, where the index of each list of attributes is kept (a new one: derived per call). */
  readonly memo: ModelMemo;
}

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Validate and normalize the value of one attribute. `ok(undefined)` means unassigned: null, an empty
 * array, or a complex value with nothing left in it (RFC 7643 §2.5), to be dropped.
 */
export function validateAttributeValue(attribute: AttributeDefinition, value: unknown, path: string, rules: ValueRules, kept = 0): Result<unknown> {
  if (value === null || value === undefined) return ok(undefined);
  if (!attribute.multiValued) return validateSingleValue(attribute, value, path, rules);
  // RFC 7643 §2.4: a multi-valued attribute is a JSON array.
  if (!Array.isArray(value)) return err(scimError('invalidValue', `Attribute '${path}' is multi-valued and must be an array`));
  // The first `kept` elements are stored ones a PATCH kept (see MemberBaseline): already valid.
  // All of them (a member removed): the array is the patched one, already private, used as is.
  if (kept > 0 && kept === value.length) return ok(value);
  const checkedValues: unknown[] = [];
  // Whether the checked elements are the given ones as they are (same members in the same order).
  let same = true;
  let primaries = 0;
  for (let i = kept; i < value.length; i++) {
    const checked = validateSingleValue(attribute, value[i], `${path}[${i}]`, rules);
    if (!checked.ok) return checked;
    if (checked.value === undefined) {
      same = false;
      continue;
    }
    if (attribute.type === 'complex' && (checked.value as Record<string, unknown>)['primary'] === true) primaries++;
    same &&= sameMembers(checked.value, value[i]);
    checkedValues.push(checked.value);
  }
  if (primaries > 0 && attribute.type === 'complex') for (let i = 0; i < kept; i++) if ((value[i] as Record<string, unknown>)['primary'] === true) primaries++;
  // RFC 7643 §2.4: the primary attribute value "true" MUST appear no more than once.
  if (primaries > 1) return err(scimError('invalidValue', `Attribute '${path}' has more than one value with 'primary' true`));
  // The kept elements follow a PATCH: the array is the patched one, private, used as is when the
  // checked elements came out as given (no copy of a 100,000-member group).
  if (kept > 0 && same) return ok(value);
  const values = kept > 0 ? value.slice(0, kept).concat(checkedValues) : checkedValues;
  return ok(values.length > 0 ? values : undefined);
}

/** Whether the checked value `a` says what `b` says in the same shape: simple values equal, objects with the same keys in the same order. */
function sameMembers(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!isJsonObject(a) || !isJsonObject(b)) return false;
  const keys = Object.keys(a);
  const others = Object.keys(b);
  if (keys.length !== others.length) return false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (key !== others[i] || !sameMembers(a[key], b[key])) return false;
  }
  return true;
}

function validateSingleValue(attribute: AttributeDefinition, value: unknown, path: string, rules: ValueRules): Result<unknown> {
  if (value === null || value === undefined) return ok(undefined);
  if (attribute.type !== 'complex') return checkSimpleValue(attribute, value, path, rules.stringBooleans);
  if (!isJsonObject(value)) return err(scimError('invalidValue', `Attribute '${path}' must be a JSON object`));
  return validateMembers(attribute.subAttributes ?? NONE, value, `${path}.`, rules);
}

/**
 * Validate the members of a JSON object against attribute definitions (sub-attributes of a complex
 * value, the attributes of a schema extension, or a resource's core attributes). Names match
 * case-insensitively and come out in the schema's spelling and order. Required members are enforced
 * when the object has a value, or always when `requireAll` is set (the resource itself). With a
 * `baseline` (a PATCH result), stored values the PATCH left as they were are not checked again.
 * `prefix` precedes a member's name in error paths: `''`, `emails[0].`, `urn:…:User:`.
 */
export function validateMembers(
  attributes: readonly AttributeDefinition[],
  object: Record<string, unknown>,
  prefix: string,
  rules: ValueRules,
  requireAll = false,
  baseline?: MemberBaseline,
): Result<Record<string, unknown> | undefined> {
  const index = rules.memo.of(MEMBER_INDEX, attributes);
  // The attributes given, by position in `attributes`, and their values (undefined: none to keep).
  const given: number[] = [];
  const values: unknown[] = [];
  let found = 0;
  let folded = false;
  for (const key in object) {
    if (!Object.prototype.hasOwnProperty.call(object, key)) continue;
    let position = index.exact.get(key);
    if (position === undefined) {
      position = index.folded.get(key.toLowerCase());
      if (position === undefined) {
        if (rules.unknownAttributes === 'reject') return err(scimError('invalidValue', `Unknown attribute '${prefix}${key}'`));
        rules.onIgnored?.(`${prefix}${key}`);
        continue;
      }
      folded = true;
    }
    const attribute = attributes[position] as AttributeDefinition;
    // Two keys can name one attribute only when one of them is spelled otherwise than the schema.
    if (folded && given.includes(position)) return err(scimError('invalidValue', `Attribute '${prefix}${attribute.name}' is given more than once`));
    given.push(position);
    values.push(undefined);
    if (rules.dropReadOnly && attribute.mutability === 'readOnly') continue;
    const value = object[key];
    if (baseline?.unchanged(key, value) === true) {
      values[values.length - 1] = value;
      found++;
      continue;
    }
    const path = prefix + attribute.name;
    const kept = baseline !== undefined && attribute.multiValued && Array.isArray(value) ? baseline.kept(key, path, value) : 0;
    const checked = validateAttributeValue(attribute, value, path, rules, kept);
    if (!checked.ok) return checked;
    if (checked.value !== undefined) {
      values[values.length - 1] = checked.value;
      found++;
    }
  }
  if (found === 0 && !requireAll) return ok(undefined);
  for (const position of index.required) {
    const at = given.indexOf(position);
    const missing = requiredProblem(attributes[position] as AttributeDefinition, at < 0 ? undefined : values[at], prefix);
    if (missing !== undefined) return err(missing);
  }
  if (found === 0) return ok(undefined);
  return ok(inOrder(attributes, given, values));
}

/** The values given (by position) as an object in the attributes' order. */
function inOrder(attributes: readonly AttributeDefinition[], given: number[], values: unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let sorted = true;
  for (let i = 1; i < given.length && sorted; i++) sorted = (given[i - 1] as number) < (given[i] as number);
  if (sorted) {
    for (let i = 0; i < given.length; i++) if (values[i] !== undefined) out[(attributes[given[i] as number] as AttributeDefinition).name] = values[i];
    return out;
  }
  const order = given.map((_, i) => i).sort((a, b) => (given[a] as number) - (given[b] as number));
  for (const i of order) if (values[i] !== undefined) out[(attributes[given[i] as number] as AttributeDefinition).name] = values[i];
  return out;
}

/**
 * RFC 7643 §2.2 `required`: the error for a required attribute (one a client writes: readOnly ones,
 * id and meta, are the service provider's) whose value is `value`, if it has none or an empty one.
 * `prefix` is what precedes its name in the error's path.
 */
export function requiredProblem(attribute: AttributeDefinition, value: unknown, prefix: string): ScimError | undefined {
  if (value === undefined) return scimError('invalidValue', `Attribute '${prefix}${attribute.name}' is required`);
  if (value === '') return scimError('invalidValue', `Attribute '${prefix}${attribute.name}' is required and must not be empty`);
  return undefined;
}

const NONE: readonly AttributeDefinition[] = [];

/** One list of attribute definitions, indexed: positions by exact and by lower-case name, required ones. */
interface MemberIndex {
  readonly exact: ReadonlyMap<string, number>;
  readonly folded: ReadonlyMap<string, number>;
  /** Positions of the required attributes a client writes (not readOnly), in order. */
  readonly required: readonly number[];
}

/** Derived once per list of attributes, kept in the model's memo. */
const MEMBER_INDEX = memoSlot('memberIndex', memberIndex);

function memberIndex(attributes: readonly AttributeDefinition[]): MemberIndex {
  const exact = new Map<string, number>();
  const folded = new Map<string, number>();
  const required: number[] = [];
  attributes.forEach((attribute, position) => {
    const lower = attribute.name.toLowerCase();
    // Names are unique ignoring case (normalizeSchema); the first one wins all the same.
    if (folded.has(lower)) return;
    folded.set(lower, position);
    exact.set(attribute.name, position);
    if (attribute.required && attribute.mutability !== 'readOnly') required.push(position);
  });
  return { exact, folded, required };
}
