/** The `meta` complex attribute common to every resource (RFC 7643 §3.1). */
export interface ScimMeta {
  resourceType: string;
  created: string;
  lastModified: string;
  /** Weak entity tag, `W/"…"` (RFC 7644 §3.14); equals the `ETag` header. */
  version: string;
  location?: string;
}

/**
 * A resource in its SCIM JSON representation, as stored and as served: core attributes at the
 * top level, extension attributes under their schema URN key.
 */
export interface ScimResource {
  schemas: string[];
  id: string;
  externalId?: string;
  meta: ScimMeta;
  [attribute: string]: unknown;
}
