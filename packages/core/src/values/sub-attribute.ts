import type { AttributeDefinition } from '../schema/attribute-definition.js';

/** The sub-attribute of `definition` named `name`, ignoring case (RFC 7643 §2.1). */
export function findSubAttribute(definition: AttributeDefinition, name: string): AttributeDefinition | undefined {
  const subs = definition.subAttributes;
  if (subs === undefined) return undefined;
  // Clients nearly always spell it as the schema does: no case folding then.
  for (let i = 0; i < subs.length; i++) if ((subs[i] as AttributeDefinition).name === name) return subs[i];
  const lower = name.toLowerCase();
  return subs.find((s) => s.name.toLowerCase() === lower);
}
