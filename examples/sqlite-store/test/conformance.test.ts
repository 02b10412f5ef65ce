import { describeStoreConformance } from '@scimkit/core/testing';
import { createSqliteStore, openDatabase } from '../src/index.js';

describeStoreConformance('SQLite store (sql.js)', async () => createSqliteStore(await openDatabase()));
