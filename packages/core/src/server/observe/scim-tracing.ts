/**
 * The part of `@opentelemetry/api` the server uses, as structural types so the core neither imports
 * nor requires the package: pass the application's own API, `tracing: { trace, context }` after
 * `import { trace, context } from '@opentelemetry/api'`. Without `tracing` nothing is traced and
 * nothing is loaded.
 */
export interface ScimTracing {
  readonly trace: {
    getTracer(name: string, version?: string): TracerLike;
    setSpan(context: ContextLike, span: SpanLike): ContextLike;
  };
  readonly context: {
    active(): ContextLike;
    with<T>(context: ContextLike, fn: () => T): T;
  };
}

/** An OpenTelemetry `Context` (opaque here). */
export type ContextLike = object;

/** The part of an OpenTelemetry `Tracer` the server uses. */
export interface TracerLike {
  startSpan(name: string, options?: { kind?: number; attributes?: Record<string, string | number | boolean> }, context?: ContextLike): SpanLike;
}

/** The part of an OpenTelemetry `Span` the server uses. */
export interface SpanLike {
  setAttribute(key: string, value: string | number | boolean): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  updateName(name: string): unknown;
  recordException(exception: Error | string): void;
  end(): void;
}

/** OpenTelemetry `SpanKind.INTERNAL` and `SpanStatusCode.ERROR` (stable values of the API). */
export const SPAN_KIND_INTERNAL = 0;
export const SPAN_STATUS_ERROR = 2;

/** The instrumentation scope name of the server's spans. */
export const TRACER_NAME = '@scimkit/core';
