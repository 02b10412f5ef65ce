import {
  createMemoryStore,
  groupResourceType,
  userResourceType,
  type MembershipOptions,
  type ScimLogger,
  type ScimServerConfig,
  type ScimStore,
} from '@scimkit/core';
import { bearerToken } from './bearer-token.js';
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
    ...(options.membership === undefined ? {} : { membership: options.membership }),
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(token === undefined || token === ''
      ? {}
      : {
          authenticate: bearerToken(token),
          authenticationSchemes: [
            {
              type: 'oauthbearertoken',
              name: 'OAuth Bearer Token',
              description: 'Authentication with a bearer token in the Authorization header',
              specUri: 'https://www.rfc-editor.org/info/rfc6750',
              primary: true,
            },
          ],
        }),
  };
}
