import type { ResourceModel } from '../schema/resource-model.js';
import type { JsonObject } from './json-value.js';
import type { PatchOpName } from './patch-operation.js';
import type { ResolvedPatchOptions } from './patch-options.js';
import type { WorkBudget } from './work-budget.js';

/** The state one request's operations share: the working copy they patch in turn. */
export interface PatchContext {
  readonly model: ResourceModel;
  readonly options: ResolvedPatchOptions;
  /** A private deep copy of the resource; fast-json-patch mutates it operation by operation. */
  readonly doc: JsonObject;
  /** Top-level keys of `doc` the operations wrote, for the final clean-up. */
  readonly touched: Set<string>;
  /** Element visits left to the request (option `maxElementVisits`). */
  readonly budget: WorkBudget;
}

/** One write of one operation: `at` is the `Operations[i]…` prefix of error details. */
export interface WriteRequest {
  readonly op: PatchOpName;
  readonly value: unknown;
  readonly hasValue: boolean;
  readonly at: string;
  /** True when the client named the target in `path`; false for keys of a path-less value. */
  readonly explicit: boolean;
}
