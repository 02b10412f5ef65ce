export { pushUsers } from './push-users.js';
export type { Person, PushSummary } from './push-users.js';
