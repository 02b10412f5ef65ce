import type { ScimEvent } from '@scimkit/core';
import { exportJWK, SignJWT, type CryptoKey, type JWK, type JWTPayload, type KeyObject } from 'jose';

/** RFC 9967 §3 event URIs. */
export const SCIM_EVENT_URIS = Object.freeze({
  feedAdd: 'urn:ietf:params:scim:event:feed:add',
  feedRemove: 'urn:ietf:params:scim:event:feed:remove',
  createNotice: 'urn:ietf:params:scim:event:prov:create:notice',
  createFull: 'urn:ietf:params:scim:event:prov:create:full',
  patchNotice: 'urn:ietf:params:scim:event:prov:patch:notice',
  patchFull: 'urn:ietf:params:scim:event:prov:patch:full',
  putNotice: 'urn:ietf:params:scim:event:prov:put:notice',
  putFull: 'urn:ietf:params:scim:event:prov:put:full',
  delete: 'urn:ietf:params:scim:event:prov:delete',
  activate: 'urn:ietf:params:scim:event:prov:activate',
  deactivate: 'urn:ietf:params:scim:event:prov:deactivate',
});

export interface SetIssuerOptions {
  /** `iss`: this SCIM service provider (its base URL). */
  readonly issuer: string;
  /** `aud`: the receiver(s). */
  readonly audience: string | readonly string[];
  /** The signing key pair (e.g. jose's `generateKeyPair('ES256', { extractable: true })`); the public half is published by `jwks()`. */
  readonly keys: { readonly privateKey: CryptoKey | KeyObject; readonly publicKey: CryptoKey | KeyObject };
  /** JWS algorithm. Default `ES256`. */
  readonly alg?: string;
  /** `kid` of the key. Default `scimkit-set-1`. */
  readonly kid?: string;
  /**
   * `notice` (default): events name the changed attributes; `full`: creates and updates carry the
   * resource as `data` (needs `events: { payload: 'resource' }` in the server; a notice otherwise).
   */
  readonly mode?: 'notice' | 'full';
  /** Endpoint of each resource type, for `sub_id.uri`. Default `/Users`, `/Groups`, else `/<name>s`. */
  readonly endpoints?: Readonly<Record<string, string>>;
}

export interface SetIssuer {
  /** The SET's claims for one event (RFC 8417 §2.2, RFC 9967 §2). */
  claims(event: ScimEvent): JWTPayload;
  /** The signed SET (`typ: secevent+jwt`). */
  sign(event: ScimEvent): Promise<string>;
  /** The JWKS receivers validate SETs with (publish it, e.g. at `/.well-known/jwks.json`). */
  jwks(): Promise<{ keys: JWK[] }>;
  /** The event URIs this issuer may emit, for `securityEvents.eventUris` in /ServiceProviderConfig (RFC 9967 §4). */
  readonly eventUris: readonly string[];
}

/** The RFC 9967 events of one scimkit event: the provisioning event, with `feed:add` on a create and `feed:remove` on a delete. */
function eventsOf(event: ScimEvent, mode: 'notice' | 'full'): Record<string, Record<string, unknown>> {
  const version = event.version === undefined ? {} : { version: event.version };
  const full = mode === 'full' && event.resource !== undefined;
  const body = full ? { data: event.resource, ...version } : { ...(event.attributes === undefined ? {} : { attributes: event.attributes }), ...version };
  const [, action] = event.type.split('.') as [string, string];
  switch (action) {
    case 'created':
      return { [SCIM_EVENT_URIS.feedAdd]: {}, [full ? SCIM_EVENT_URIS.createFull : SCIM_EVENT_URIS.createNotice]: body };
    case 'deleted':
      return { [SCIM_EVENT_URIS.delete]: version, [SCIM_EVENT_URIS.feedRemove]: {} };
    case 'deactivated':
      return { [SCIM_EVENT_URIS.deactivate]: version };
    case 'reactivated':
      return { [SCIM_EVENT_URIS.activate]: version };
    case 'members_added':
    case 'members_removed':
      return { [SCIM_EVENT_URIS.patchNotice]: { attributes: ['members'], ...version } };
    default: {
      const put = event.operation === 'replace';
      const uri = full ? (put ? SCIM_EVENT_URIS.putFull : SCIM_EVENT_URIS.patchFull) : put ? SCIM_EVENT_URIS.putNotice : SCIM_EVENT_URIS.patchNotice;
      return { [uri]: body };
    }
  }
}

/** Issues RFC 9967 Security Event Tokens, signed with `jose`. */
export function createSetIssuer(options: SetIssuerOptions): SetIssuer {
  const alg = options.alg ?? 'ES256';
  const kid = options.kid ?? 'scimkit-set-1';
  const mode = options.mode ?? 'notice';
  const audience = typeof options.audience === 'string' ? options.audience : [...options.audience];
  const endpointOf = (resourceType: string): string => options.endpoints?.[resourceType] ?? (resourceType === 'User' ? '/Users' : resourceType === 'Group' ? '/Groups' : `/${resourceType}s`);
  let published: Promise<{ keys: JWK[] }> | undefined;

  const claims = (event: ScimEvent): JWTPayload => ({
    iss: options.issuer,
    aud: audience,
    iat: Math.floor(Date.now() / 1000),
    jti: event.id,
    // RFC 9967 §2.1: the subject is the SCIM resource, by its URI relative to the base URL.
    sub_id: { format: 'scim', uri: `${endpointOf(event.resourceType)}/${event.resourceId}` },
    // RFC 8417 §2.2 `txn`: the SCIM request that caused the change.
    txn: event.requestId,
    toe: Math.floor(Date.parse(event.time) / 1000),
    ...(event.tenant === undefined ? {} : { tenant: event.tenant }),
    events: eventsOf(event, mode),
  });

  return {
    claims,
    eventUris: [
      SCIM_EVENT_URIS.feedAdd,
      SCIM_EVENT_URIS.feedRemove,
      ...(mode === 'full' ? [SCIM_EVENT_URIS.createFull, SCIM_EVENT_URIS.patchFull, SCIM_EVENT_URIS.putFull] : []),
      SCIM_EVENT_URIS.createNotice,
      SCIM_EVENT_URIS.patchNotice,
      SCIM_EVENT_URIS.putNotice,
      SCIM_EVENT_URIS.delete,
      SCIM_EVENT_URIS.activate,
      SCIM_EVENT_URIS.deactivate,
    ],
    sign: (event) => new SignJWT(claims(event)).setProtectedHeader({ alg, kid, typ: 'secevent+jwt' }).sign(options.keys.privateKey),
    jwks: () =>
      (published ??= exportJWK(options.keys.publicKey).then((jwk) => ({ keys: [{ ...jwk, kid, alg, use: 'sig' }] }))),
  };
}
