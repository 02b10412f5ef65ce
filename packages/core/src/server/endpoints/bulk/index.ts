export { postBulk } from './post-bulk.js';
export type { Dispatch } from './post-bulk.js';
