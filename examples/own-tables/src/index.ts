export { createOwnTablesApp } from './create-app.js';
export type { OwnTablesOptions } from './create-app.js';
export { createAppSchema } from './app-schema.js';
export { openDatabase } from './open-database.js';
export { mapping } from './mapping.js';
