import { err, ok, type Result } from '../../errors/result.js';
import type { ScimResource } from '../../schema/scim-resource.js';
import type { StoreContext } from '../../store/scim-store.js';
import { versionKey } from '../write/recent-versions.js';
import { notFoundError } from './not-found.js';
import type { ServedType, ServerContext } from '../config/server-context.js';

/**
 * Stage 4, load: the stored resource, or 404 (its detail per `notFoundDetail`). What it read is the
 * version this server last saw (`ServerCaches.recent`), the base a later write may start from.
 */
export async function loadResource(context: ServerContext, type: ServedType, id: string, ctx: StoreContext): Promise<Result<ScimResource>> {
  const name = type.model.definition.name;
  const found = await context.store.get(name, id, ctx);
  const recent = context.caches.recent;
  if (found === undefined) {
    if (recent.enabled) recent.forget(versionKey(ctx.tenant, name, id));
    return err(notFoundError(context, type, id));
  }
  if (recent.enabled) recent.remember(versionKey(ctx.tenant, name, id), found);
  return ok(context.caches.adopt(found));
}
