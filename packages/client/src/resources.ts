import type {
  AttributeDefinitionInput,
  ResourceTypeDefinitionInput,
  SchemaDefinitionInput,
  ScimGroup as ServedGroup,
  ScimMeta as ServedMeta,
  ScimMultiValue,
  ScimResource as ServedResource,
  ScimUser as ServedUser,
} from '@scimkit/core';

/*
 * The resource shapes have one home, the core's schema types (RFC 7643 §3, §4, §6, §7), imported
 * here as types only: they add nothing to the client's bundle and no dependency beyond the peer it
 * already has. The client's versions differ in one way: on the wire every attribute may be absent
 * (a create carries no id or meta, `attributes=` leaves the rest out, another server may omit what
 * scimkit always returns), so each is optional, and any other attribute is allowed by name.
 */

/** The named members of `T`, without its index signature (which would swallow them in Omit and Partial). */
export type Named<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };

/** A resource shape as a client sends and reads it: `schemas`, then every attribute optional. */
export type OnTheWire<T extends ServedResource> = Partial<Omit<Named<T>, 'schemas' | 'meta'>> & { schemas: string[]; meta?: ScimMeta; [attribute: string]: unknown };

/** `meta` (RFC 7643 §3.1); `version` is the weak ETag, e.g. `W/"3"`, sent back as `If-Match` by `replace`, `patch` and `delete`. */
export type ScimMeta = Partial<ServedMeta>;

/** Any resource: the common attributes (RFC 7643 §3.1) and whatever its schemas define. */
export type ScimResource = OnTheWire<ServedResource>;

/** A value of a multi-valued attribute (RFC 7643 §2.4). */
export type MultiValued = ScimMultiValue;

/** The User resource (RFC 7643 §4.1), with the Enterprise User extension (§4.3). */
export type ScimUser = OnTheWire<ServedUser>;

/** The Group resource (RFC 7643 §4.2). */
export type ScimGroup = OnTheWire<ServedGroup>;

/** `ListResponse` (RFC 7644 §3.4.2), with RFC 9865's cursors. */
export interface ListResponse<T> {
  schemas: string[];
  totalResults: number;
  Resources?: T[];
  startIndex?: number;
  itemsPerPage?: number;
  nextCursor?: string;
  previousCursor?: string;
}

/** `/ServiceProviderConfig` (RFC 7643 §5; `pagination` from RFC 9865 §4). */
export interface ServiceProviderConfig extends ScimResource {
  documentationUri?: string;
  patch?: { supported: boolean };
  bulk?: { supported: boolean; maxOperations?: number; maxPayloadSize?: number };
  filter?: { supported: boolean; maxResults?: number };
  changePassword?: { supported: boolean };
  sort?: { supported: boolean };
  etag?: { supported: boolean };
  pagination?: {
    cursor?: boolean;
    index?: boolean;
    defaultPaginationMethod?: 'index' | 'cursor';
    defaultPageSize?: number;
    maxPageSize?: number;
    cursorTimeout?: number;
  };
  authenticationSchemes?: { type?: string; name?: string; description?: string; primary?: boolean }[];
}

/** A schema attribute (RFC 7643 §7). */
export type SchemaAttribute = AttributeDefinitionInput;

/** `/Schemas/{id}` (RFC 7643 §7). */
export type ScimSchema = ScimResource & SchemaDefinitionInput;

/** `/ResourceTypes/{name}` (RFC 7643 §6). */
export type ScimResourceType = ScimResource & ResourceTypeDefinitionInput;
