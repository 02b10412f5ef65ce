import {
  bearerToken,
  createMemoryStore,
  groupResourceType,
  userResourceType,
  type CompatibilityConfig,
  type MembershipOptions,
  type ScimLogger,
  type ScimServerConfig,
  type ScimStore,
} from '@scimkit/core';
import { oauthAuthentication, rateLimit, scopePolicy, type TokenVerifier } from '@scimkit/oauth';
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
  /**
   * Secret that signs RFC 9865 paging cursors (at least 32 characters); give every instance the same
   * one. Default: a random key per server, so cursors do not survive a restart.
   */
  readonly cursorSecret?: string;
  /** Client tolerances (docs/concepts/compatibility.md). Default `'entra'`. */
  readonly compatibility?: CompatibilityConfig;
  /** What a successful PATCH answers (RFC 7644 §3.5.2 allows both). Default `'noContent'` (204). */
  readonly patchResponse?: 'resource' | 'noContent';
  /**
   * Personal tokens, each standing for one User: with one of them `/Me` is that user (RFC 7644
   * §3.11). `token` stands for a client (an identity provider), for which `/Me` is 404.
   */
  readonly userTokens?: readonly UserToken[];
  /**
   * OAuth client credentials (docs/concepts/authentication.md): access tokens from the token
   * endpoint, checked by `verifier`, beside `token` and `userTokens`; scopes per operation
   * (`scim` everything, `scim:read` reads only).
   */
  readonly oauth?: { readonly verifier: TokenVerifier; readonly tokenEndpointUrl?: string };
  /** Requests per second per tenant (bursts of as many more over 10 s); beyond: 429 with Retry-After. Default: no limit. */
  readonly rateLimit?: number;
}

/** A bearer token that stands for one User resource. */
export interface UserToken {
  readonly token: string;
  /** The `id` of the User the token stands for. */
  readonly userId: string;
}

/** The principal of a personal token. */
interface UserPrincipal {
  readonly userId: string;
}

function isUserPrincipal(principal: unknown): principal is UserPrincipal {
  return typeof principal === 'object' && principal !== null && typeof (principal as { userId?: unknown }).userId === 'string';
}

/**
 * The configuration of the full reference server, the one docs/concepts/groups-and-membership.md
 * shows for "Users and Groups": Users with the Enterprise User extension and Groups, every endpoint
 * (CRUD, `.search`, PATCH, ETags, Bulk, cursor paging), membership semantics, the meta-schemas, a
 * reserved group name refused in `beforeWrite`, and 404s that name the resource not found. Its
 * client settings (why each: docs/concepts/compatibility.md) are the `entra` tolerances and PATCH
 * answered 204 (RFC 7644 §3.5.2; `Prefer: return=representation` still gets the resource).
 *
 * `/Me` (RFC 7644 §3.11) needs a principal that stands for a user: it is on with `userTokens`
 * (personal tokens, each for one User) and off (501) otherwise, since the client token authenticates
 * an identity provider, not a user.
 */
export function createFullServerConfig(options: FullServerOptions = {}): ScimServerConfig {
  const token = options.token;
  const userTokens = options.userTokens ?? [];
  const tokens = [
    ...(token === undefined || token === '' ? [] : [{ token, principal: 'bearer' }]),
    ...userTokens.map((entry) => ({ token: entry.token, principal: { userId: entry.userId } satisfies UserPrincipal })),
  ];
  return {
    resourceTypes: [userResourceType, groupResourceType],
    store: options.store ?? createMemoryStore(),
    beforeWrite: reservedGroupNames(options.reservedGroupNames ?? ['Administrators']),
    notFoundDetail: 'name',
    // RFC 7643 §7: /Schemas also serves the Schema, ResourceType and ServiceProviderConfig meta-schemas.
    discovery: { metaSchemas: true },
    // RFC 7644 §3.7: limits advertised in /ServiceProviderConfig (defaults: 1000 operations, the body limit).
    bulk: {},
    // RFC 9865 cursors beside index paging (index stays the default method).
    pagination: options.cursorSecret === undefined ? {} : { cursorSecret: options.cursorSecret },
    compatibility: options.compatibility ?? 'entra',
    patchResponse: options.patchResponse ?? 'noContent',
    ...(options.membership === undefined ? {} : { membership: options.membership }),
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    // Constant-time comparison over SHA-256 digests; /ServiceProviderConfig stays readable (RFC 7643 §5).
    ...(options.oauth !== undefined ? oauthAuthentication({ verifier: options.oauth.verifier, tokens, ...(options.oauth.tokenEndpointUrl === undefined ? {} : { tokenEndpointUrl: options.oauth.tokenEndpointUrl }) }) : tokens.length === 0 ? {} : bearerToken({ tokens })),
    // RFC 6750 §3.1: an access token without the scope an operation needs is 403 insufficient_scope.
    ...(options.oauth === undefined ? {} : scopePolicy()),
    // Before the body is read: per tenant, memory of this instance (docs/concepts/authentication.md#rate-limits).
    ...(options.rateLimit === undefined ? {} : rateLimit({ tenant: { perSecond: options.rateLimit, burst: options.rateLimit } })),
    ...(userTokens.length === 0 ? {} : { me: (principal: unknown) => (isUserPrincipal(principal) ? { resourceType: 'User', id: principal.userId } : undefined) }),
  };
}
