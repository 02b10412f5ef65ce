/**
 * @scimkit/fetch: serve a scimkit server with the Fetch API (`Request` → `Response`): Hono, Next.js
 * route handlers, Bun, Deno, Cloudflare Workers, and Node through any of them.
 *
 * @module @scimkit/fetch
 */
export { createFetchHandler } from './create-fetch-handler.js';
export type { FetchHandler, FetchHandlerOptions } from './create-fetch-handler.js';
export type { ScimHandler } from '@scimkit/core/adapter';
