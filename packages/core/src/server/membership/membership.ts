import type { AttributeDefinition } from '../../schema/attribute-definition.js';
import { URN } from '../../schema/urns.js';
import type { ReferenceLookup } from '../../store/scim-store.js';
import type { MembershipOptions } from '../config/scim-server-config.js';
import type { ServedType } from '../config/server-context.js';

/**
 * Group membership as one server serves it (docs/concepts/groups-and-membership.md): which type holds
 * `members`, which types a member may be, and on which types `groups` is computed from them.
 */
export interface Membership {
  /** The type whose `members` reference other resources (the one with the Group schema). */
  readonly group: ServedType;
  /** `members`, as the Group schema defines it. */
  readonly members: AttributeDefinition;
  /** Types a member may be, in lookup order: those `members.$ref` names (User, then Group). */
  readonly memberTypes: readonly ServedType[];
  /** Member types whose readOnly `groups` (RFC 7643 §4.1.2) is computed on read: the User type. */
  readonly computed: ReadonlySet<ServedType>;
  /** What happens to a member id that resolves to nothing. */
  readonly dangling: 'reject' | 'accept';
  /** The store lookup of the groups that hold a resource (`ScimStore.referrers`): `members.value` of the group type. */
  readonly lookup: ReferenceLookup;
}

/**
 * The membership of a configuration, or undefined when it serves no type with the Group schema (or
 * turned membership off with `membership: false`). Only the first such type has the semantics.
 */
export function resolveMembership(types: readonly ServedType[], options: MembershipOptions | false | undefined): Membership | undefined {
  if (options === false) return undefined;
  const group = types.find((type) => type.model.core.id.toLowerCase() === URN.group.toLowerCase());
  const members = group?.model.resolve({ attr: 'members' });
  if (group === undefined || members === undefined || members.extension) return undefined;
  const attribute = members.attribute;
  if (attribute.type !== 'complex' || !attribute.multiValued) return undefined;
  const named = attribute.subAttributes?.find((sub) => sub.name === '$ref')?.referenceTypes ?? ['User', 'Group'];
  const memberTypes: ServedType[] = [];
  for (const name of named) {
    const type = types.find((candidate) => candidate.model.definition.name.toLowerCase() === name.toLowerCase());
    if (type !== undefined && !memberTypes.includes(type)) memberTypes.push(type);
  }
  const computed = new Set(memberTypes.filter((type) => type !== group && computesGroups(type)));
  const caseExact = attribute.subAttributes?.find((sub) => sub.name.toLowerCase() === 'value')?.caseExact ?? false;
  const lookup: ReferenceLookup = { resourceType: group.model.definition.name, attribute: attribute.name, caseExact };
  return { group, members: attribute, memberTypes, computed, dangling: options?.danglingReferences ?? 'reject', lookup };
}

/** A type whose core schema has a readOnly multi-valued complex `groups` (the User schema). */
function computesGroups(type: ServedType): boolean {
  const groups = type.model.resolve({ attr: 'groups' });
  return (
    groups !== undefined &&
    !groups.extension &&
    groups.subAttribute === undefined &&
    groups.attribute.type === 'complex' &&
    groups.attribute.multiValued &&
    groups.attribute.mutability === 'readOnly'
  );
}

/** The `groups` attribute name in the schema's spelling. */
export const GROUPS = 'groups';
/** The `members` attribute name in the schema's spelling. */
export const MEMBERS = 'members';
