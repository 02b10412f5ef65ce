import type { ScimStore, StoreContext } from '../../store/scim-store.js';
import { SPAN_KIND_INTERNAL, SPAN_STATUS_ERROR, type ContextLike, type ScimTracing, type SpanLike, type TracerLike } from './scim-tracing.js';

type StoreMethod = 'create' | 'get' | 'replace' | 'assign' | 'delete' | 'query' | 'referrers';

/**
 * The store seen through one request's span: every call is a child span `scim.store.{method}` of
 * `parent`, with the resource type and tenant, ended when the call settles (error status and the
 * exception when it throws). Capabilities pass through unchanged.
 */
export function tracedStore(store: ScimStore, tracing: ScimTracing, tracer: TracerLike, parent: ContextLike): ScimStore {
  const call = async <T>(method: StoreMethod, resourceType: string, ctx: StoreContext | undefined, run: () => Promise<T>): Promise<T> => {
    const span = tracer.startSpan(
      `scim.store.${method}`,
      { kind: SPAN_KIND_INTERNAL, attributes: { 'scim.resource_type': resourceType, ...(ctx?.tenant === undefined ? {} : { 'scim.tenant': ctx.tenant }) } },
      parent,
    );
    try {
      return await tracing.context.with(tracing.trace.setSpan(parent, span), run);
    } catch (error) {
      recordFailure(span, error);
      throw error;
    } finally {
      span.end();
    }
  };
  return {
    ...(store.capabilities === undefined ? {} : { capabilities: store.capabilities }),
    ...(store.outbox === undefined ? {} : { outbox: store.outbox }),
    create: (type, resource, ctx) => call('create', type, ctx, () => store.create(type, resource, ctx)),
    get: (type, id, ctx) => call('get', type, ctx, () => store.get(type, id, ctx)),
    replace: (type, id, resource, expected, ctx) => call('replace', type, ctx, () => store.replace(type, id, resource, expected, ctx)),
    delete: (type, id, expected, ctx) => call('delete', type, ctx, () => store.delete(type, id, expected, ctx)),
    query: (type, query, ctx) => call('query', type, ctx, () => store.query(type, query, ctx)),
    ...(store.referrers === undefined
      ? {}
      : { referrers: (lookup, resources, ctx) => call('referrers', lookup.resourceType, ctx, () => (store.referrers as NonNullable<ScimStore['referrers']>)(lookup, resources, ctx)) }),
    ...(store.assign === undefined
      ? {}
      : { assign: (type, id, assignment, ctx) => call('assign', type, ctx, () => (store.assign as NonNullable<ScimStore['assign']>)(type, id, assignment, ctx)) }),
  };
}

/** Mark a span failed with the thrown value. */
export function recordFailure(span: SpanLike, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  span.recordException(error instanceof Error ? error : message);
  span.setStatus({ code: SPAN_STATUS_ERROR, message });
}
