export { createSqliteStore } from './sqlite-store.js';
export { openDatabase } from './open-database.js';
export { indexedEquality } from './indexed-equality.js';
export type { IndexedEquality } from './indexed-equality.js';
export { saveDatabase, databaseSaver } from './save-database.js';
