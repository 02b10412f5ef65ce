import { createMemoryStore } from '../../src/index.js';
import { describeStoreConformance } from '../../src/testing/index.js';

describeStoreConformance('memory store', () => createMemoryStore());
