export { resolveMembership, type Membership } from './membership.js';
export { membersOn, settleWholeGroup, settlePatchedGroup, patchMembers, type EngineReport } from './group-write.js';
export { groupsLookup, readContext, withComputedAttributes } from './computed-groups.js';
export { queryType } from './groups-query.js';
export { removeReferences } from './remove-references.js';
