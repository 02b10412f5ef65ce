export { createSeedService, GROUP_FIXTURES } from './seed-service.js';
export type { SeedServiceOptions } from './seed-service.js';
export { storeFromEnv } from './store-from-env.js';
export type { SelectedStore } from './store-from-env.js';
