/**
 * @scimkit/core/testing: the `ScimStore` conformance kit. Call {@link describeStoreConformance} from
 * a vitest test file with a factory for an empty store. ESM under vitest only (vitest loads test files
 * as ES modules and refuses `require()`).
 *
 * @module @scimkit/core/testing
 */
export { describeStoreConformance } from './describe-store-conformance.js';
export type { StoreConformanceOptions } from './describe-store-conformance.js';
export type { FaultyStore } from './describe-unavailable.js';
export type { StoreProfile } from './store-profile.js';
export { cursorWalkMismatch, differentialMismatch } from './differential.js';
export type { DifferentialCase } from './differential.js';
