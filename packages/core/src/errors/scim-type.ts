/**
 * The closed vocabulary of SCIM error types and the HTTP status each one travels with
 * (RFC 7644 §3.12, Table 9, and RFC 9865 §2.1 for cursors). `sensitive` is the only 403; every
 * other type is a 400, except `uniqueness`, which RFC 7644 §3.3 and §3.5.1 pair with 409 Conflict.
 */
export const SCIM_TYPE_STATUS = Object.freeze({
  invalidFilter: 400,
  tooMany: 400,
  uniqueness: 409,
  mutability: 400,
  invalidSyntax: 400,
  invalidPath: 400,
  noTarget: 400,
  invalidValue: 400,
  invalidVers: 400,
  sensitive: 403,
  /** RFC 9865 §2.1: the cursor is not one this server returned for this query. */
  invalidCursor: 400,
  /** RFC 9865 §2.1: the cursor is older than `cursorTimeout`. */
  expiredCursor: 400,
} as const);

export type ScimType = keyof typeof SCIM_TYPE_STATUS;

export const SCIM_TYPES = Object.freeze(Object.keys(SCIM_TYPE_STATUS)) as readonly ScimType[];

export function isScimType(value: unknown): value is ScimType {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(SCIM_TYPE_STATUS, value);
}
