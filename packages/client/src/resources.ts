/** `meta` (RFC 7643 §3.1). */
export interface ScimMeta {
  readonly resourceType?: string;
  readonly created?: string;
  readonly lastModified?: string;
  readonly location?: string;
  /** The weak ETag, e.g. `W/"3"`: sent back as `If-Match` by `replace`, `patch` and `delete`. */
  readonly version?: string;
}

/** Any resource: the common attributes (RFC 7643 §3.1) and whatever its schemas define. */
export interface ScimResource {
  schemas: string[];
  id?: string;
  externalId?: string;
  meta?: ScimMeta;
  [attribute: string]: unknown;
}

export interface MultiValued {
  value?: string;
  display?: string;
  type?: string;
  primary?: boolean;
}

/** The User resource (RFC 7643 §4.1), with the Enterprise User extension (§4.3). */
export interface ScimUser extends ScimResource {
  userName?: string;
  name?: { formatted?: string; familyName?: string; givenName?: string; middleName?: string; honorificPrefix?: string; honorificSuffix?: string };
  displayName?: string;
  nickName?: string;
  profileUrl?: string;
  title?: string;
  userType?: string;
  preferredLanguage?: string;
  locale?: string;
  timezone?: string;
  active?: boolean;
  password?: string;
  emails?: MultiValued[];
  phoneNumbers?: MultiValued[];
  ims?: MultiValued[];
  photos?: MultiValued[];
  addresses?: (MultiValued & { formatted?: string; streetAddress?: string; locality?: string; region?: string; postalCode?: string; country?: string })[];
  groups?: (MultiValued & { $ref?: string })[];
  entitlements?: MultiValued[];
  roles?: MultiValued[];
  x509Certificates?: MultiValued[];
  'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'?: {
    employeeNumber?: string;
    costCenter?: string;
    organization?: string;
    division?: string;
    department?: string;
    manager?: { value?: string; $ref?: string; displayName?: string };
  };
}

/** The Group resource (RFC 7643 §4.2). */
export interface ScimGroup extends ScimResource {
  displayName?: string;
  members?: { value?: string; $ref?: string; type?: string; display?: string }[];
}

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
export interface SchemaAttribute {
  name: string;
  type: string;
  multiValued?: boolean;
  required?: boolean;
  caseExact?: boolean;
  mutability?: string;
  returned?: string;
  uniqueness?: string;
  canonicalValues?: string[];
  referenceTypes?: string[];
  subAttributes?: SchemaAttribute[];
  description?: string;
}

/** `/Schemas/{id}` (RFC 7643 §7). */
export interface ScimSchema extends ScimResource {
  id: string;
  name?: string;
  description?: string;
  attributes: SchemaAttribute[];
}

/** `/ResourceTypes/{name}` (RFC 7643 §6). */
export interface ScimResourceType extends ScimResource {
  id?: string;
  name: string;
  endpoint: string;
  schema: string;
  description?: string;
  schemaExtensions?: { schema: string; required: boolean }[];
}
