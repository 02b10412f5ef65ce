export { describeStoreConformance } from './describe-store-conformance.js';
