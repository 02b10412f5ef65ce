import type { ResourceModel } from '../schema/resource-model.js';
import type { ElementKeyCache } from './element-key-cache.js';
import type { PatchOpName } from './patch-operation.js';
import type { ResolvedPatchOptions } from './patch-options.js';
import type { WorkBudget } from '../budget/patch-visits.js';
import type { WorkingCopy } from './working-copy.js';

/** The state one request's operations share: the copy-on-write working copy they patch in turn. */
export interface PatchContext extends WorkingCopy {
  readonly model: ResourceModel;
  readonly options: ResolvedPatchOptions;
  /** Element visits left to the request (option `maxElementVisits`). */
  readonly budget: WorkBudget;
  /** The server's indexes of large stored arrays (see ElementKeyCache), when it keeps them. */
  readonly elementKeys: ElementKeyCache | undefined;
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
