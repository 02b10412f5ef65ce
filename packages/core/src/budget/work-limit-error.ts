import { scimError, type ScimError } from '../errors/scim-error.js';
import type { WorkBudget } from './work-budget.js';

/**
 * RFC 7644 §3.12 `tooMany` ("more results than the server is willing to calculate or process"):
 * the request needs more work than `limits.maxRequestWork` allows.
 */
export function workLimitError(budget: WorkBudget): ScimError {
  return scimError(
    'tooMany',
    `The request needs more than ${budget.limit} units of work (limits.maxRequestWork: values visited by the filter, sort comparisons, values returned). Narrow the filter, drop sortBy, ask for fewer resources (count) or fewer attributes (excludedAttributes).`,
  );
}
