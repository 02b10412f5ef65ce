import { err, ok, type Result } from '../errors/result.js';
import type { ScimResource } from '../schema/scim-resource.js';
import { deepEqual } from './deep-equal.js';
import { writeKey, type Exchange } from './exchange.js';
import { checkResourceSize } from './limits/resource-size.js';
import { loadResource } from './load-resource.js';
import { checkIfMatch } from './precondition.js';
import { assembleResource, changedMeta } from './resource-meta.js';
import type { ServedType } from './server-context.js';
import { ETAG_MISMATCH, uniquenessError, WRITE_CONFLICT } from './write-failure.js';

/** Computes the new body from the stored resource (validate a PUT body, or apply a PATCH); returns `existing` itself when nothing changes. */
export type Revision = (existing: ScimResource) => Result<Readonly<Record<string, unknown>>>;

export interface UpdateOutcome {
  readonly before: ScimResource;
  readonly after: ScimResource;
  /** False when the revision left the resource as it was: nothing was written. */
  readonly changed: boolean;
}

/** How many times a write without `If-Match` re-reads and retries after losing a compare-and-swap. */
const MAX_ATTEMPTS = 8;

/**
 * Stages 4–7 of PUT and PATCH: load (404), precondition (`If-Match`, 412), validate (the
 * revision, 400), execute (compare-and-swap on `meta.version`, 409 uniqueness).
 *
 * Writes to one resource are serialized within this server. A write that still loses the
 * compare-and-swap (another process changed the resource) is a 412 when the client sent
 * `If-Match`; without it the write re-reads and retries with jittered backoff, so no update is lost.
 * A revision that changes nothing keeps `meta.version` and `meta.lastModified`.
 */
export async function updateResource(exchange: Exchange, type: ServedType, id: string, revise: Revision): Promise<Result<UpdateOutcome>> {
  const { context, request } = exchange;
  const name = type.model.definition.name;
  return context.writes.run(writeKey(exchange, name, id), async (): Promise<Result<UpdateOutcome>> => {
    for (let attempt = 1; ; attempt++) {
      const loaded = await loadResource(context, type, id, exchange.storeContext);
      if (!loaded.ok) return loaded;
      const existing = loaded.value;
      const precondition = checkIfMatch(request, existing);
      if (!precondition.ok) return precondition;
      const revised = revise(existing);
      if (!revised.ok) return revised;

      // A revision that returns the stored resource itself changed nothing (PATCH knows it): no compare needed.
      if (revised.value === existing) return ok({ before: existing, after: existing, changed: false });
      const candidate = assembleResource(revised.value, existing.id, existing.meta);
      if (sameContent(candidate, existing)) return ok({ before: existing, after: existing, changed: false });
      const next: ScimResource = { ...candidate, meta: changedMeta(existing, new Date().toISOString()) };
      const sized = checkResourceSize(next, context.limits);
      if (!sized.ok) return sized;
      const written = await context.store.replace(name, existing.id, next, existing.meta.version, { ...exchange.storeContext, unique: type.model.unique });
      if (written.ok) return ok({ before: existing, after: written.resource, changed: true });
      if (written.reason === 'notFound') return err({ status: 404, detail: '' });
      if (written.reason === 'uniqueness') return err(uniquenessError(written.attribute));
      if (precondition.value !== undefined) return err(ETAG_MISMATCH);
      if (attempt >= MAX_ATTEMPTS) return err(WRITE_CONFLICT);
      await backoff(attempt);
    }
  });
}

/** Equal apart from `meta`. */
function sameContent(a: ScimResource, b: ScimResource): boolean {
  return deepEqual({ ...a, meta: undefined }, { ...b, meta: undefined });
}

/** Full jitter: a random wait below 2^attempt milliseconds. */
export function backoff(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * 2 ** attempt));
}
