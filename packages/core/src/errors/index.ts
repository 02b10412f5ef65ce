export { SCIM_TYPE_STATUS, SCIM_TYPES, isScimType } from './scim-type.js';
export type { ScimType } from './scim-type.js';
export { scimError, httpError, isScimError, ScimException } from './scim-error.js';
export type { ScimError } from './scim-error.js';
export { ok, err } from './result.js';
export type { Result } from './result.js';
