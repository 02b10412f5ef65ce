import { updatedEvents } from '../../events/derive-events.js';
import { err, ok, type Result } from '../../errors/result.js';
import { withEntry } from '../../json/with-entry.js';
import type { ScimResource } from '../../schema/scim-resource.js';
import type { MultiValuedChange, ReferenceLookup, StoreContext, UniqueAttribute, WriteContext } from '../../store/scim-store.js';
import { checkBeforeWrite } from './before-write.js';
import { jsonEqual } from '../../values/index.js';
import { actorOf, writeKey, type Exchange } from '../request/exchange.js';
import { checkResourceSize } from './resource-size.js';
import { loadResource } from '../query/load-resource.js';
import { notFoundError } from '../query/not-found.js';
import { checkIfMatch } from '../request/precondition.js';
import { assembleResource, changedMeta } from './resource-meta.js';
import type { ServedType } from '../config/server-context.js';
import { ETAG_MISMATCH, storeRefusalError, uniquenessError, WRITE_CONFLICT } from './write-failure.js';

/** What a revision makes of the stored resource. */
export interface Revised {
  /** The new body; `existing` itself when nothing changes. */
  readonly body: Readonly<Record<string, unknown>>;
  /** What the write does to multi-valued attributes, element by element (a PATCH), for the store. */
  readonly changes?: readonly MultiValuedChange[];
  /** The revision knows the body differs from `existing` (a PATCH that changed something): no whole-resource compare. */
  readonly changed?: boolean;
}

/** Computes the new body from the stored resource (validate a PUT body, or apply a PATCH), with membership settled. */
export type Revision = (existing: ScimResource) => Result<Revised> | Promise<Result<Revised>>;

export interface UpdateOutcome {
  readonly before: ScimResource;
  readonly after: ScimResource;
  /** False when the revision left the resource as it was: nothing was written. */
  readonly changed: boolean;
}

/**
 * How many times a write without `If-Match` re-reads and retries after losing a compare-and-swap.
 * Within one server writes to a resource are serialised, so only other processes contend: each lost
 * attempt means another write went through, and 32 bounded waits (at most ~1 s in all) let a write
 * through even when a second instance keeps a long queue of writes to the same resource.
 */
export const MAX_WRITE_ATTEMPTS = 32;

/** Longest single wait between attempts, in milliseconds. */
const MAX_BACKOFF_MS = 32;

/** What one attempt made of a write: its answer, or a compare-and-swap lost without `If-Match` (try again). */
const MISSED = Symbol('missed');

/**
 * Stages 4–7 of PUT and PATCH: load (404), precondition (`If-Match`, 412), validate (the
 * revision, 400), `beforeWrite`, execute (compare-and-swap on `meta.version`, 409 uniqueness, 400 when
 * the store cannot keep a value).
 *
 * Writes to one resource are serialized within this server. A write that still loses the
 * compare-and-swap (another process changed the resource) is a 412 when the client sent
 * `If-Match`; without it the write re-reads and retries with jittered backoff, so no update is lost.
 * A revision that changes nothing keeps `meta.version` and `meta.lastModified`. `readBack`: the
 * response shows computed `groups`, so the write tells the store (`StoreContext.referrers`).
 *
 * The first attempt may start without a read, from a base the store has not confirmed: what the
 * previous write of this server's queue stored (KeyedMutex.leave), else the last version this
 * server saw (`ServerCaches.recent`, recent-versions.ts). Only a compare-and-swap that succeeds
 * confirms it; any other outcome (a missed swap, a failed `If-Match`, a refused revision or hook, a
 * revision that changes nothing, a store's refusal) is confirmed by a read: it stands if the store
 * still holds the base's version, else the write starts over from what it read, at no cost to the
 * attempts. No answer comes from an unconfirmed base; a hook may see one write twice, the first time
 * with a stale base. See docs/architecture.md, "Server caches".
 */
export async function updateResource(
  exchange: Exchange,
  type: ServedType,
  id: string,
  operation: 'replace' | 'patch',
  revise: Revision,
  readBack?: ReferenceLookup,
): Promise<Result<UpdateOutcome>> {
  const { context, request } = exchange;
  const name = type.model.definition.name;
  const key = writeKey(exchange, name, id);
  const recent = context.caches.recent;

  /** One attempt from `existing`: its answer, or MISSED when it lost the swap without `If-Match`. */
  const attempt = async (existing: ScimResource): Promise<Result<UpdateOutcome> | typeof MISSED> => {
    // Read once: the swap compares what the revision started from.
    const expected = existing.meta.version;
    const precondition = checkIfMatch(request, existing);
    if (!precondition.ok) return precondition;
    const revised = await revise(existing);
    if (!revised.ok) return revised;
    const { body, changes } = revised.value;

    // A revision that returns the stored resource itself changed nothing (PATCH knows it): no compare needed.
    if (body === existing) return ok({ before: existing, after: existing, changed: false });
    const candidate = assembleResource(body, existing.id, existing.meta);
    if (revised.value.changed !== true && sameContent(candidate, existing)) return ok({ before: existing, after: existing, changed: false });
    const next: ScimResource = { ...candidate, meta: changedMeta(existing, new Date().toISOString()) };
    const elementLevel = changes === undefined || changes.length === 0 ? undefined : changes;
    const sized = checkResourceSize(next, context.limits, elementLevel === undefined ? undefined : { before: existing, changes: elementLevel, sizes: context.caches.sizes });
    if (!sized.ok) return sized;
    const allowed = await checkBeforeWrite(exchange, { operation, resourceType: name, id: existing.id, resource: next, existing });
    if (!allowed.ok) return allowed;
    const events = context.events;
    const ctx = writeContext(readBack === undefined ? exchange.storeContext : withEntry(exchange.storeContext, 'referrers', readBack), type.model.unique, elementLevel);
    const written = await context.store.replace(
      name,
      existing.id,
      next,
      expected,
      events === undefined ? ctx : withEntry(ctx, 'events', (stored: ScimResource) => updatedEvents(events, actorOf(exchange), type.model, existing, stored, elementLevel, operation)),
    );
    if (written.ok) {
      context.caches.afterWrite({ before: existing, after: written.resource, sent: next, ...(elementLevel === undefined ? {} : { changes: elementLevel }) });
      context.writes.leave(key, written.resource);
      recent.remember(key, written.resource);
      return ok({ before: existing, after: written.resource, changed: true });
    }
    if (written.reason === 'notFound') return err(notFoundError(context, type, id));
    if (written.reason === 'uniqueness') return err(uniquenessError(written.attribute));
    if (written.reason === 'invalidValue') return err(storeRefusalError(written.detail));
    return precondition.value !== undefined ? err(ETAG_MISMATCH) : MISSED;
  };

  return context.writes.run(key, async (): Promise<Result<UpdateOutcome>> => {
    const base = (context.writes.take(key) as ScimResource | undefined) ?? recent.get(key);
    let read: ScimResource | undefined;
    if (base !== undefined) {
      const tried = await attempt(base);
      // A swap that went through confirmed the base.
      if (tried !== MISSED && tried.ok && tried.value.changed) return tried;
      // Anything else is confirmed by a read: if the store still holds the base's version (one
      // content: ids and versions are the core's), the answer stands; else start over from the read.
      const loaded = await loadResource(context, type, id, exchange.storeContext);
      if (!loaded.ok) return loaded;
      if (tried !== MISSED && loaded.value.meta.version === base.meta.version) {
        return tried.ok ? ok({ before: loaded.value, after: loaded.value, changed: false }) : tried;
      }
      read = loaded.value;
    }
    for (let tries = 1; ; tries++) {
      let existing = read;
      read = undefined;
      if (existing === undefined) {
        const loaded = await loadResource(context, type, id, exchange.storeContext);
        if (!loaded.ok) return loaded;
        existing = loaded.value;
      }
      const tried = await attempt(existing);
      if (tried !== MISSED) return tried;
      if (tries >= MAX_WRITE_ATTEMPTS) return err(WRITE_CONFLICT);
      await backoff(tries);
    }
  });
}

/**
 * The store's context of the write: the request's, with the uniqueness rules and the element-level
 * changes. Built with withEntry, not a spread followed by new keys (V8's slow path, ~2.5 µs).
 */
function writeContext(storeContext: StoreContext, unique: readonly UniqueAttribute[], changes: readonly MultiValuedChange[] | undefined): WriteContext {
  const context = withEntry(storeContext, 'unique', unique);
  return changes === undefined ? context : withEntry(context, 'changes', changes);
}

/** Equal apart from `meta`. */
function sameContent(a: ScimResource, b: ScimResource): boolean {
  return jsonEqual({ ...a, meta: undefined }, { ...b, meta: undefined });
}

/** Full jitter: a random wait below 2^attempt milliseconds. */
export function backoff(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2 ** attempt, MAX_BACKOFF_MS)));
}
