export { applyPatch } from './apply-patch.js';
export type { PatchResult } from './apply-patch.js';
export { DEFAULT_PATCH_OPTIONS, resolvePatchOptions } from './patch-options.js';
export type { PatchOptions, ResolvedPatchOptions } from './patch-options.js';
export { parsePatchRequest } from './parse-patch-request.js';
export type { PatchOperation, PatchOpName } from './patch-operation.js';
