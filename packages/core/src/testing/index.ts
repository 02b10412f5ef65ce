export { describeStoreConformance } from './describe-store-conformance.js';
export type { StoreConformanceOptions } from './describe-store-conformance.js';
