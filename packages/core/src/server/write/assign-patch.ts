import { err, ok, type Result } from '../../errors/result.js';
import { withEntry } from '../../json/with-entry.js';
import type { PatchOptions } from '../../patch/patch-options.js';
import type { ScimResource } from '../../schema/scim-resource.js';
import type { ValidationOptions } from '../../schema/validation-options.js';
import type { ReferenceLookup } from '../../store/scim-store.js';
import type { ServedType } from '../config/server-context.js';
import { notFoundError } from '../query/not-found.js';
import { writeKey, type Exchange } from '../request/exchange.js';
import { requestHeader } from '../request/request-header.js';
import { planAssignment } from './assignment-plan.js';
import { freshVersion } from './resource-meta.js';
import { resourceBefore } from './resource-before.js';

/**
 * A PATCH the store applied in one step: the resource as stored after it, and whether it changed;
 * with a request log, the resource as it was before it (resourceBefore), for the log's change.
 */
export interface Assigned {
  readonly after: ScimResource;
  readonly changed: boolean;
  readonly before?: ScimResource;
}

/**
 * A PATCH pushed down to the store (`ScimStore.assign`): one store call instead of a read and a
 * compare-and-swap. Undefined when it does not apply, and the PATCH then takes the read path
 * (updateResource), with the same answers: the store has no `assign`; the server needs the stored
 * resource before the write (a `beforeWrite` or `onChange` hook, derived events, recent versions); `If-Match` is not one weak tag or `*`; the operations are not all decided
 * without the stored resource (planAssignment); or the store declined or found another version
 * than `If-Match` names (the read path compares it as RFC 7232 §2.3.2 does, and answers 412). Within this server it runs
 * in the resource's write queue, as every write to it does.
 *
 * With a request log, the store is asked for what the assigned attributes held before the step
 * (`wantPrevious`), and the resource as it was is rebuilt from it (resourceBefore) for the log's
 * change: the same `before` the read path reads.
 *
 * The size limit (`limits.maxResourceBytes`) is the store's to keep: it writes only a result it
 * knows is within the limit and declines otherwise, and the read path then measures exactly (see
 * docs/writing-a-store.md, "Assignments"). No attribute it sets is multi-valued, so
 * `maxValuesPerAttribute` cannot be crossed.
 */
export async function assignPatch(
  exchange: Exchange,
  type: ServedType,
  id: string,
  body: unknown,
  patch: PatchOptions,
  validation: ValidationOptions,
  readBack: ReferenceLookup | undefined,
): Promise<Result<Assigned> | undefined> {
  const { context, request } = exchange;
  const store = context.store;
  if (store.assign === undefined || !needsNoBefore(exchange)) return undefined;
  const expected = expectedVersion(requestHeader(request, 'if-match'));
  if (expected === false) return undefined;
  const values = planAssignment(type.model, body, patch, validation);
  if (values === undefined) return undefined;
  const name = type.model.definition.name;
  const assignment = {
    values,
    lastModified: new Date().toISOString(),
    freshVersion: freshVersion(),
    maxResourceBytes: context.limits.maxResourceBytes,
    ...(expected === undefined ? {} : { expectedVersion: expected }),
    ...(exchange.recording === undefined ? {} : { wantPrevious: true }),
  };
  const ctx = readBack === undefined ? exchange.storeContext : withEntry(exchange.storeContext, 'referrers', readBack);
  const key = writeKey(exchange, name, id);
  return context.writes.run(key, async (): Promise<Result<Assigned> | undefined> => {
    // What an earlier write of the queue left is of no use here: the store reads its own row.
    context.writes.take(key);
    const done = await (store.assign as NonNullable<typeof store.assign>)(name, id, assignment, ctx);
    if (done.ok) {
      const after = context.caches.adopt(done.resource);
      if (!done.changed) return ok({ after, changed: false });
      context.writes.leave(key, after);
      return ok(done.previous === undefined ? { after, changed: true } : { after, changed: true, before: resourceBefore(after, assignment, done.previous) });
    }
    if (done.reason === 'notFound') return err(notFoundError(context, type, id));
    // A mismatch (rare) is judged by the read path: `If-Match` compares tags weakly (etagListMatches).
    return undefined;
  });
}

/** Whether nothing of this server needs the stored resource before a PATCH writes it (the request log gets it from the store: `wantPrevious`). */
function needsNoBefore(exchange: Exchange): boolean {
  const { context } = exchange;
  const config = context.config;
  return config.beforeWrite === undefined && config.onChange === undefined && context.events === undefined && !context.caches.recent.enabled;
}

/**
 * The version `If-Match` asks for (RFC 7644 §3.14): undefined for none (absent, empty or `*`: the
 * resource need only exist), false when the read path must judge it (a list, or a tag that is not
 * weak: `etagListMatches` compares those with and without `W/`).
 */
function expectedVersion(header: string | undefined): string | undefined | false {
  if (header === undefined) return undefined;
  const entry = header.trim();
  if (entry === '' || entry === '*') return undefined;
  return entry.startsWith('W/"') && entry.endsWith('"') && !entry.includes(',') ? entry : false;
}
