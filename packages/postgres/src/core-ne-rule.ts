import { compileFilter, createSchemaRegistry, parseFilter, URN, userResourceType, type Filter } from '@scimkit/core';

let probed: boolean | undefined;

/**
 * Whether the core's evaluator matches `title ne "x"` on a user without a title: the decisions' rule
 * (`ne` is the negation of `eq`), which the SQL implements. A core that still reads `ne` as "has a
 * different value" gets such filters evaluated in memory instead, so the store always answers as
 * the core does.
 */
function coreNegatesEq(): boolean {
  if (probed === undefined) {
    const model = createSchemaRegistry({ resourceTypes: [userResourceType] }).resourceType('User');
    const filter = parseFilter('title ne "x"');
    const test = model !== undefined && filter.ok ? compileFilter(filter.value, model) : undefined;
    const probe = { schemas: [URN.user], id: 'probe', userName: 'probe', meta: { resourceType: 'User', created: '', lastModified: '', version: '' } };
    probed = test?.ok === true && test.value(probe);
  }
  return probed;
}

/** True when the SQL translation of `filter` means what the core's evaluator means. */
export function pushableFilter(filter: Filter): boolean {
  return coreNegatesEq() || !hasValueNe(filter);
}

function hasValueNe(filter: Filter): boolean {
  const pending: Filter[] = [filter];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    switch (next.kind) {
      case 'compare':
        if (next.op === 'ne' && next.value !== null) return true;
        break;
      case 'and':
      case 'or':
        pending.push(next.left, next.right);
        break;
      case 'not':
      case 'valuePath':
        pending.push(next.filter);
        break;
      default:
        break;
    }
  }
  return false;
}
