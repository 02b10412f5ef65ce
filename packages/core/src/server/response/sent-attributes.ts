import type { AttributeDefinition } from '../../schema/attribute-definition.js';
import type { ResourceModel } from '../../schema/resource-model.js';
import { topLevelAttributes } from '../../schema/top-level-attributes.js';
import { jsonEqual } from '../../values/index.js';
import { memoOf, memoSlot } from '../../schema/model-memo.js';

/** A `returned: "request"` attribute, or a complex one with such sub-attributes, and where its value lives. */
interface Candidate {
  readonly attribute: AttributeDefinition;
  /** Extension URN holding it, or undefined for the core schema. */
  readonly container?: string;
}

/** Derived once per model, kept in its memo. */
const CANDIDATES = memoSlot('sentCandidates', (model: ResourceModel): readonly Candidate[] => {
  const relevant = (attribute: AttributeDefinition): boolean =>
    attribute.returned === 'request' || (attribute.subAttributes ?? []).some((sub) => sub.returned === 'request');
  return [
    ...topLevelAttributes(model).filter(relevant).map((attribute) => ({ attribute })),
    ...model.extensions.flatMap(({ schema }) => schema.attributes.filter(relevant).map((attribute) => ({ attribute, container: schema.id }))),
  ];
});

function candidates(model: ResourceModel): readonly Candidate[] {
  return memoOf(model).get(CANDIDATES, model);
}

/**
 * The `returned: "request"` attributes and sub-attributes the client specified in a POST or PUT
 * (present in the validated body) or a PATCH (changed between `before` and the body), so the
 * response returns them (RFC 7643 §7, read as Ping's SCIM SDK reads it). Empty, at no cost, for
 * the many types that have none.
 */
export function sentAttributes(model: ResourceModel, body: Readonly<Record<string, unknown>>, before?: Readonly<Record<string, unknown>>): ReadonlySet<AttributeDefinition> {
  const list = candidates(model);
  const sent = new Set<AttributeDefinition>();
  if (list.length === 0) return sent;
  for (const { attribute, container } of list) {
    const value = valueOf(body, container, attribute.name);
    if (value === undefined || value === null) continue;
    const previous = before === undefined ? undefined : valueOf(before, container, attribute.name);
    if (before !== undefined && jsonEqual(value, previous)) continue;
    if (attribute.returned === 'request') sent.add(attribute);
    for (const sub of attribute.subAttributes ?? []) {
      if (sub.returned !== 'request') continue;
      const elements = Array.isArray(value) ? value : [value];
      if (elements.some((element) => typeof element === 'object' && element !== null && (element as Record<string, unknown>)[sub.name] !== undefined)) sent.add(sub);
    }
  }
  return sent;
}

function valueOf(holder: Readonly<Record<string, unknown>>, container: string | undefined, name: string): unknown {
  const scope = container === undefined ? holder : holder[container];
  return typeof scope === 'object' && scope !== null ? (scope as Record<string, unknown>)[name] : undefined;
}
