import { projectResource } from '../../schema/project-resource.js';
import type { ScimResource } from '../../schema/scim-resource.js';
import type { AttributeSelection } from '../query/attribute-selection.js';
import type { Exchange } from '../request/exchange.js';
import type { ServedType } from '../config/server-context.js';
import { GROUPS, type Membership } from './membership.js';
import { computeGroupsOf } from './user-groups.js';
import { withEntry } from '../../json/with-entry.js';
import type { ReferenceLookup } from '../../store/scim-store.js';
import { memoOf, memoSlot } from '../../schema/model-memo.js';
import type { ResourceModel } from '../../schema/resource-model.js';

/**
 * Whether a response with `selection` shows `groups` of `type` (RFC 7644 §3.4.2.5, RFC 7643 §2.2
 * `returned`), decided by projecting a probe with the same rules every response uses, so that
 * `attributes=groups.display`, URN-qualified names and `excludedAttributes` all agree.
 */
export function showsGroups(type: ServedType, selection: AttributeSelection): boolean {
  const plain = (selection.attributes ?? []).length === 0 && (selection.excludedAttributes ?? []).length === 0;
  if (!plain) return probeShowsGroups(type.model, selection);
  return memoOf(type.model).get(SHOWN_BY_DEFAULT, type.model);
}

/** Whether a request that selects nothing shows `groups`: derived once per model, kept in its memo. */
const SHOWN_BY_DEFAULT = memoSlot('showsGroupsByDefault', (model: ResourceModel) => probeShowsGroups(model, {}));

function probeShowsGroups(model: ResourceModel, selection: AttributeSelection): boolean {
  const probe: ScimResource = {
    schemas: [model.core.id],
    id: 'probe',
    meta: { resourceType: model.definition.name, created: '', lastModified: '', version: '' },
    [GROUPS]: [{ value: 'probe', $ref: 'probe', display: 'probe', type: 'direct' }],
  };
  return projectResource(model, probe, selection)[GROUPS] !== undefined;
}

/** The membership whose `groups` are computed on `type`, if any. */
export function computedOn(exchange: Exchange, type: ServedType): Membership | undefined {
  const membership = exchange.context.membership;
  return membership !== undefined && membership.computed.has(type) ? membership : undefined;
}

/**
 * `resources` with their computed `groups` (none: the attribute is absent, RFC 7643 §2.5), looked
 * up for the whole list at once (see computeGroupsOf).
 */
export async function withGroups(exchange: Exchange, membership: Membership, resources: readonly ScimResource[]): Promise<ScimResource[]> {
  const computed = await computeGroupsOf(exchange, membership, resources);
  return resources.map((resource) => {
    const groups = computed.get(resource.id) ?? [];
    if (groups.length > 0) return withEntry(resource, GROUPS, groups);
    if (!Object.prototype.hasOwnProperty.call(resource, GROUPS)) return resource;
    const { [GROUPS]: _stored, ...rest } = resource;
    return rest as ScimResource;
  });
}

/**
 * The resources as a response shows them: with computed `groups` when their type has them and the
 * selection shows them; otherwise untouched, at no cost (no group is looked up).
 */
export async function withComputedAttributes(
  exchange: Exchange,
  type: ServedType,
  resources: readonly ScimResource[],
  selection: AttributeSelection,
): Promise<readonly ScimResource[]> {
  const membership = computedOn(exchange, type);
  if (membership === undefined || !showsGroups(type, selection)) return resources;
  return withGroups(exchange, membership, resources);
}

/**
 * The store context of a read whose resources will be shown with computed `groups`: the request's,
 * with `referrers` set so that a store may read the groups in the same statement
 * (`StoreContext.referrers`); the request's own context otherwise.
 */
export function readContext(exchange: Exchange, type: ServedType, selection: AttributeSelection): Exchange['storeContext'] {
  const lookup = groupsLookup(exchange, type, selection);
  return lookup === undefined ? exchange.storeContext : withEntry(exchange.storeContext, 'referrers', lookup);
}

/** The `referrers` lookup of the computed `groups` a response with `selection` shows; undefined when it shows none. */
export function groupsLookup(exchange: Exchange, type: ServedType, selection: AttributeSelection): ReferenceLookup | undefined {
  const membership = computedOn(exchange, type);
  return membership === undefined || !showsGroups(type, selection) ? undefined : membership.lookup;
}
