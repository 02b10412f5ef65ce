export { createSeedService, GROUP_FIXTURES } from './seed-service.js';
export type { SeedServiceOptions } from './seed-service.js';
