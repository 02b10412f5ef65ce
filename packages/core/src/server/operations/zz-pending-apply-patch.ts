// TEMPORARY until src/patch lands; not to be committed.
import type { Result } from '../../errors/result.js';
import type { ScimResource } from '../../schema/scim-resource.js';
export function applyPatch(_m: unknown, _r: ScimResource, _b: unknown, _o: unknown): Result<{ resource: ScimResource; changed: boolean }> {
  return { ok: false, error: { status: 501, detail: 'PATCH pending' } };
}
