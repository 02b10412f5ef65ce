import { err, ok, type Result } from '../errors/result.js';
import { httpError } from '../errors/scim-error.js';
import type { ScimResource } from '../schema/scim-resource.js';
import type { StoreContext } from '../store/scim-store.js';
import type { ServedType, ServerContext } from './server-context.js';

/** Stage 4, load: the stored resource, or 404 with an empty detail (service-spec: unknown user id). */
export async function loadResource(context: ServerContext, type: ServedType, id: string, ctx: StoreContext): Promise<Result<ScimResource>> {
  const found = await context.store.get(type.model.definition.name, id, ctx);
  return found === undefined ? err(httpError(404, '')) : ok(found);
}
