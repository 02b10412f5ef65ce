import { httpError, type ScimError } from '../../errors/scim-error.js';
import type { ServedType, ServerContext } from '../config/server-context.js';

/**
 * The 404 for an unknown resource id (RFC 7644 §3.12): by default its detail names the resource
 * (`Resource 2819c223 not found`); `notFoundDetail: 'empty'` gives `""` (the seed service's spec),
 * a function writes its own.
 */
export function notFoundError(context: ServerContext, type: ServedType, id: string): ScimError {
  const option = context.config.notFoundDetail ?? 'name';
  const resourceType = type.model.definition.name;
  if (option === 'empty') return httpError(404, '');
  if (typeof option === 'function') return httpError(404, option(resourceType, id));
  return httpError(404, `Resource ${id.length > 200 ? `${id.slice(0, 200)}…` : id} not found`);
}
