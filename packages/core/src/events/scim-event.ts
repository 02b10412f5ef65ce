/**
 * One provisioning event, derived by the core from a committed write (docs/concepts/events.md).
 * Plain JSON: a store keeps it as is, in the same transaction as the write.
 */
export interface ScimEvent {
  /** Stable id (a UUID), the same on every delivery: receivers deduplicate on it. */
  readonly id: string;
  /** `user.created`, `group.members_added`, `device.updated`… (see ScimEventType). */
  readonly type: string;
  /** When the write happened (ISO 8601). */
  readonly time: string;
  /** The tenant of the write; absent for the default tenant. */
  readonly tenant?: string;
  /** Resource type name, e.g. `User`. */
  readonly resourceType: string;
  readonly resourceId: string;
  /** `meta.version` after the write (on a delete: the version deleted). */
  readonly version?: string;
  /** The SCIM operation that made the write (a delete's cascade is a `patch` of each group). */
  readonly operation: 'create' | 'replace' | 'patch' | 'delete';
  /** The id of the request that made the write. */
  readonly requestId: string;
  /** Who made it, as `events.principal` reads the principal `authenticate` returned. */
  readonly principal?: string;
  /** On `*.updated`: the attribute paths the write changed (`name.givenName`, `urn:…:employeeNumber`). */
  readonly attributes?: readonly string[];
  /** On `group.members_added` / `group.members_removed`: the member ids, once per request. */
  readonly members?: readonly string[];
  /** The resource after the write, when `events.payload` is `resource` (never on a delete). */
  readonly resource?: Readonly<Record<string, unknown>>;
}

/**
 * The event names. User and Group (by their core schema) have their own; any other resource type
 * gets `<name>.created|updated|deleted`, its name lower-cased.
 */
export type ScimEventType =
  | 'user.created'
  | 'user.updated'
  | 'user.deactivated'
  | 'user.reactivated'
  | 'user.deleted'
  | 'group.created'
  | 'group.updated'
  | 'group.deleted'
  | 'group.members_added'
  | 'group.members_removed'
  | `${string}.created`
  | `${string}.updated`
  | `${string}.deleted`;
