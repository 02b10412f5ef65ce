export { bearerToken } from './bearer-token.js';
export type { BearerTokenOptions, BearerTokenEntry, BearerIdentity, BearerTokenAuthentication } from './bearer-token.js';
