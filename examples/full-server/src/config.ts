import {
  bearerToken,
  createMemoryStore,
  groupResourceType,
  userResourceType,
  type MembershipOptions,
  type ScimLogger,
  type ScimServerConfig,
  type ScimStore,
} from '@scimkit/core';
import { reservedGroupNames } from './reserved-names.js';

export interface FullServerOptions {
  /** When set, every request needs `Authorization: Bearer <token>`; otherwise the server is open. */
  readonly token?: string;
  /** Where resources live. Default: a fresh `createMemoryStore()`. */
  readonly store?: ScimStore;
  /** Absolute mount-point URL, when the adapter cannot tell it. */
  readonly baseUrl?: string;
  readonly logger?: ScimLogger;
  /** Group names clients may not create or rename to. Default `['Administrators']`. */
  readonly reservedGroupNames?: readonly string[];
  /** Membership options. Default: unknown members refused. */
  readonly membership?: MembershipOptions;
}

/**
 * The configuration of the full reference server, the one docs/concepts/groups-and-membership.md
 * shows for "Users and Groups": Users with the Enterprise User extension and Groups, every endpoint
 * (CRUD, `.search`, PATCH, ETags), membership semantics, a reserved group name refused in
 * `beforeWrite`, and 404s that name the resource not found.
 */
export function createFullServerConfig(options: FullServerOptions = {}): ScimServerConfig {
  const token = options.token;
  return {
    resourceTypes: [userResourceType, groupResourceType],
    store: options.store ?? createMemoryStore(),
    beforeWrite: reservedGroupNames(options.reservedGroupNames ?? ['Administrators']),
    notFoundDetail: 'name',
    // RFC 7643 §7: /Schemas also serves the Schema, ResourceType and ServiceProviderConfig meta-schemas.
    discovery: { metaSchemas: true },
    ...(options.membership === undefined ? {} : { membership: options.membership }),
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    // Constant-time comparison over SHA-256 digests; /ServiceProviderConfig stays readable (RFC 7643 §5).
    ...(token === undefined || token === '' ? {} : bearerToken({ tokens: [{ token, principal: 'bearer' }] })),
  };
}
