import { err, ok, type Result } from '../../errors/result.js';
import type { ScimResource } from '../../schema/scim-resource.js';
import type { StoreContext } from '../../store/scim-store.js';
import { notFoundError } from './not-found.js';
import type { ServedType, ServerContext } from '../config/server-context.js';

/** Stage 4, load: the stored resource, or 404 (its detail per `notFoundDetail`). */
export async function loadResource(context: ServerContext, type: ServedType, id: string, ctx: StoreContext): Promise<Result<ScimResource>> {
  const found = await context.store.get(type.model.definition.name, id, ctx);
  return found === undefined ? err(notFoundError(context, type, id)) : ok(context.caches.adopt(found));
}
