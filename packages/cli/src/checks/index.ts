import type { Check } from '../check.js';
import { attributeChecks } from './attribute-checks.js';
import { bulkChecks } from './bulk-checks.js';
import { discoveryChecks } from './discovery-checks.js';
import { errorChecks } from './error-checks.js';
import { etagChecks } from './etag-checks.js';
import { filterChecks } from './filter-checks.js';
import { groupChecks } from './group-checks.js';
import { pagingChecks } from './paging-checks.js';
import { patchChecks } from './patch-checks.js';
import { userChecks } from './user-checks.js';

/** Every check, in the order they run. The clean-up check is added by the runner. */
export const ALL_CHECKS: readonly Check[] = [
  ...discoveryChecks,
  ...userChecks,
  ...groupChecks,
  ...filterChecks,
  ...patchChecks,
  ...etagChecks,
  ...pagingChecks,
  ...bulkChecks,
  ...errorChecks,
  ...attributeChecks,
];
