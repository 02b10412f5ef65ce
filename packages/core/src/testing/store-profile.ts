import type { ResourceModel } from '../schema/resource-model.js';

/**
 * A store that keeps its own schema (mapped columns, not JSON documents), described for the kit:
 * with a profile, `describeStoreConformance` runs against these resource types, these attribute
 * paths and this id format, reads `capabilities.versions` and `capabilities.tenancy` from the
 * store, checks losslessness for the declared paths only, and adds the differential property test.
 */
export interface StoreProfile {
  /** The User resource type as the store serves it (`createSchemaRegistry(...).resourceType('User')`). */
  readonly user: ResourceModel;
  /** The Group resource type, when the store keeps groups and their members. */
  readonly group?: ResourceModel;
  /**
   * The User attribute paths the store keeps, as filter paths: `userName`, `name.givenName`,
   * `active`, `urn:…:enterprise:2.0:User:department`, or one typed element,
   * `emails[type eq "work"].value`. The kit writes values for these only, and expects them back.
   */
  readonly declared: readonly string[];
  /** Paths the store keeps in one place, which the kit therefore writes with one value (`userName` and `emails[type eq "work"].value` in one column). */
  readonly sameValue?: readonly (readonly [string, string])[];
  /** The ids the kit proposes: `uuid` (the default; what a uuid column holds) or `prefixed` (`u-<uuid>`). */
  readonly ids?: 'uuid' | 'prefixed';
  /** Property runs of the differential test (default 60). */
  readonly runs?: number;
}
