import { DEFAULT_LIMITS } from '../server/config/server-context.js';
import type { ScimHandler } from './scim-handler.js';

/** The body limit an adapter enforces: its own option, else the server's `limits.maxBodyBytes`, else the default (1 MiB). */
export function bodyLimit(handler: ScimHandler, maxBodyBytes: number | undefined): number {
  return maxBodyBytes ?? handler.config?.limits?.maxBodyBytes ?? DEFAULT_LIMITS.maxBodyBytes;
}
