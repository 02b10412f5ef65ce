import type { CompatibilityOptions, CompatibilityProfile } from './scim-server-config.js';

type Resolved = Required<CompatibilityOptions>;

const STRICT: Resolved = Object.freeze({
  stringBooleans: false,
  removeValueArray: false,
  pathKeysInValue: false,
  managerAsString: false,
  createMissingValuePath: false,
  allowEmptyOperations: false,
  unquotedFilterValues: false,
  serviceConfigurationPath: false,
  valueFilterInAttributes: false,
  omitPaginationConfig: false,
});

/**
 * Every tolerance of each profile, spelled out (docs/concepts/compatibility.md has the table):
 * - `strict`: none; every bent shape gets the RFC answer.
 * - `entra`: all of them but `omitPaginationConfig` (which serves another client). Microsoft Entra
 *   ID sends string booleans, path keys in values, the manager as a string, `remove` with a value
 *   array, and `replace` on a missing value path; the Microsoft SCIM validator sends empty
 *   `Operations` and unquoted filter values.
 * - `okta`: the unambiguous ones (the defaults); Okta's own requests are RFC-conformant, and these
 *   cost nothing. The three that contradict the RFC stay off.
 */
export const COMPATIBILITY_PROFILES: Readonly<Record<CompatibilityProfile, Resolved>> = Object.freeze({
  strict: STRICT,
  entra: Object.freeze({
    stringBooleans: true,
    removeValueArray: true,
    pathKeysInValue: true,
    managerAsString: true,
    createMissingValuePath: true,
    allowEmptyOperations: true,
    unquotedFilterValues: true,
    serviceConfigurationPath: true,
    valueFilterInAttributes: true,
    omitPaginationConfig: false,
  }),
  okta: Object.freeze({
    ...STRICT,
    stringBooleans: true,
    removeValueArray: true,
    pathKeysInValue: true,
    managerAsString: true,
  }),
});
