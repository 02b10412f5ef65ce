import { beforeEach, describe } from 'vitest';
import type { ScimStore } from '../store/scim-store.js';
import { conformanceModels, type ConformanceModels } from './conformance-schema.js';
import { describeAssign } from './describe-assign.js';
import { describeChanges } from './describe-changes.js';
import { describeCrud } from './describe-crud.js';
import { describeCursors } from './describe-cursors.js';
import { describeEvents } from './describe-events.js';
import { describeFilters } from './describe-filters.js';
import { describeImmutableResults } from './describe-immutable-results.js';
import { describeLosslessness } from './describe-losslessness.js';
import { describeIgnoredReferences, describeReferences } from './describe-references.js';
import { describeReferrers } from './describe-referrers.js';
import { describeSortAndPaging } from './describe-sort-and-paging.js';
import { describeTenancy } from './describe-tenancy.js';
import { describeUniqueness } from './describe-uniqueness.js';
import { describeUnavailable, faultyAtBoundary, type FaultyStore } from './describe-unavailable.js';
import { describeProfile } from './describe-profile.js';
import type { StoreProfile } from './store-profile.js';

export interface StoreConformanceOptions {
  /** Per-test timeout in milliseconds, for stores behind a network. Default 10,000. */
  readonly timeout?: number;
  /**
   * A fresh, empty store whose backend can be made to fail ({@link FaultyStore}), for the
   * "unavailable" cases: each step of a write failing in turn must be a `StoreUnavailableError`
   * (503) that leaves nothing half-written. Without it those cases inject the failures between the
   * server and the store, which checks the answer but not the store's own atomicity.
   */
  readonly faults?: () => FaultyStore | Promise<FaultyStore>;
  /**
   * For a store with its own schema (mapped columns over the application's tables): the resource
   * types, declared attributes and id format it keeps. The kit then runs the profile suite (the
   * store's own versions and ids, uniqueness, declared attributes kept, tenants only when
   * `capabilities.tenancy` is not `'single'`, and the differential property test) instead of the
   * document-store suite, whose fixed schema and resources such a store cannot keep.
   */
  readonly profile?: StoreProfile;
}

/**
 * The `ScimStore` conformance kit. Call it from a vitest test file with a factory that returns an
 * empty store; each test gets a fresh one:
 *
 * ```ts
 * import { describeStoreConformance } from '@scimkit/core/testing';
 * describeStoreConformance('my SQL store', async () => createMyStore(await freshDatabase()));
 * ```
 *
 * It checks create/get/replace/delete, compare-and-swap on `meta.version`, uniqueness (ignoring case
 * and Unicode normalization when caseExact is false) under races, tenants kept apart, replace with
 * element `changes`, every RFC 7644 filter and sort rule, paging, and that resources come back
 * exactly as stored. Queries go through the real filter language and honour the store's
 * `capabilities`: what is not pushed down is finished in memory, as the server does. A store that
 * declares `references`, `cursor`, `events` or `immutableResults` also gets the reference-cascade,
 * keyset-cursor, outbox or unchanged-results tests,
 * one with `referrers` the batched-lookup tests, and one with `assign` the pushed-down PATCH tests; the factory is called once while the tests are
 * collected, to read those `capabilities` and methods.
 */
export function describeStoreConformance(name: string, factory: () => ScimStore | Promise<ScimStore>, options: StoreConformanceOptions = {}): void {
  describe(`ScimStore conformance: ${name}`, { timeout: options.timeout ?? 10_000 }, async () => {
    const probe = await factory();
    const declared = probe.capabilities ?? {};
    if (options.profile !== undefined) {
      let fresh: ScimStore | undefined;
      beforeEach(async () => {
        fresh = await factory();
      });
      describeProfile(
        () => {
          if (fresh === undefined) throw new Error('the store factory has not run');
          return fresh;
        },
        options.profile,
        { tenancy: declared.tenancy ?? 'multi', versions: declared.versions ?? 'core', cursor: declared.cursor === true },
      );
      const faults = options.faults;
      describeUnavailable(faults === undefined ? async () => faultyAtBoundary(await factory()) : async () => faults(), faults === undefined, declared.references === true, options.profile);
      return;
    }
    let current: ScimStore | undefined;
    let models: ConformanceModels | undefined;
    beforeEach(async () => {
      current = await factory();
      models ??= conformanceModels();
    });
    const store = (): ScimStore => {
      if (current === undefined) throw new Error('the store factory has not run');
      return current;
    };
    const model = (): ConformanceModels => {
      if (models === undefined) throw new Error('the conformance models are not built');
      return models;
    };

    describeCrud(store);
    describeUniqueness(store);
    describeFilters(store, model);
    describeSortAndPaging(store, model);
    describeLosslessness(store, model);
    describeTenancy(store, model);
    describeChanges(store, model);
    if (declared.references === true) describeReferences(store, model);
    else describeIgnoredReferences(store);
    if (declared.cursor === true) describeCursors(store, model);
    if (probe.referrers !== undefined) describeReferrers(store, model);
    if (declared.events === true) describeEvents(store);
    if (declared.immutableResults === true) describeImmutableResults(store, model);
    if (probe.assign !== undefined) describeAssign(store);
    const faults = options.faults;
    describeUnavailable(faults === undefined ? async () => faultyAtBoundary(await factory()) : async () => faults(), faults === undefined, declared.references === true);
  });
}
