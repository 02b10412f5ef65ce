import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { context, ROOT_CONTEXT, trace, type Context } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { createMemoryStore, createScimServer, userResourceType, type ScimTracing } from '../../src/index.js';
import { call, post, server, user } from './helpers.js';
import { recordingStore } from './recording-store.js';

/** The application's OpenTelemetry API over its own provider (no global registration in tests). */
function tracing(): { tracing: ScimTracing; exporter: InMemorySpanExporter; provider: BasicTracerProvider } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { tracing: { trace: { getTracer: (name, version) => provider.getTracer(name, version), setSpan: trace.setSpan }, context }, exporter, provider };
}

const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;

describe('OpenTelemetry spans', () => {
  it('one span per request (method, route, status, tenant, request id) with a child span per store call', async () => {
    const { tracing: api, exporter } = tracing();
    const { store } = recordingStore();
    // No recent versions: the PATCH reads, then writes (two store calls, two spans).
    const target = server({ store, tracing: api, authenticate: () => ({ ok: true, tenant: 'acme' }), recentVersions: { maxEntries: 0 } });
    const id = (await call(target, post('/Users', user('traced'), { headers: { 'content-type': 'application/scim+json', 'x-request-id': 'req-1' } }))).body['id'] as string;
    exporter.reset();
    await call(target, { method: 'PATCH', path: `/Users/${id}`, body: JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'add', path: 'title', value: 'x' }] }) });
    const spans = exporter.getFinishedSpans();
    const request = spans.find((span) => span.name === 'SCIM PATCH /Users/{id}');
    expect(request, spans.map((span) => span.name).join(', ')).toBeDefined();
    expect(request?.instrumentationScope.name).toBe('@scimkit/core');
    expect(request?.attributes).toMatchObject({
      'http.request.method': 'PATCH',
      'http.route': '/Users/{id}',
      'http.response.status_code': 200,
      'scim.tenant': 'acme',
      'scim.operation': 'patch',
      'scim.resource_type': 'User',
      'scim.request_id': expect.any(String),
    });
    const storeSpans = spans.filter((span) => span.name.startsWith('scim.store.'));
    expect(storeSpans.map((span) => span.name)).toEqual(['scim.store.get', 'scim.store.replace']);
    for (const span of storeSpans) {
      expect(parentOf(span)).toBe(request?.spanContext().spanId);
      expect(span.spanContext().traceId).toBe(request?.spanContext().traceId);
      expect(span.attributes).toEqual({ 'scim.resource_type': 'User', 'scim.tenant': 'acme' });
    }
  });

  it('nests under the active span (an HTTP server span) and marks failures', async () => {
    const { tracing: api, exporter, provider } = tracing();
    const parent = provider.getTracer('http').startSpan('GET /scim/v2/Users');
    const active = trace.setSpan(ROOT_CONTEXT, parent);
    const { store } = recordingStore();
    const target = server({
      store: { ...store, query: () => Promise.reject(new Error('db down')) },
      tracing: { ...api, context: { active: () => active, with: (ctx, fn) => context.with(ctx as Context, fn) } },
    });
    expect((await call(target, { method: 'GET', path: '/Users' })).status).toBe(500);
    parent.end();
    const spans = exporter.getFinishedSpans();
    const request = spans.find((span) => span.name === 'SCIM GET /Users');
    const query = spans.find((span) => span.name === 'scim.store.query');
    expect(parentOf(request as ReadableSpan)).toBe(parent.spanContext().spanId);
    expect(request?.status).toEqual({ code: 2, message: 'db down' });
    expect(query?.status).toEqual({ code: 2, message: 'db down' });
    expect(query?.events.map((event) => event.name)).toEqual(['exception']);
    expect(request?.attributes['http.response.status_code']).toBe(500);
  });

  it('a refused or unrouted request still has its span, without store spans', async () => {
    const { tracing: api, exporter } = tracing();
    const target = server({ tracing: api, authenticate: (request) => ({ ok: request.headers?.['authorization'] === 'ok' }) });
    await call(target, { method: 'GET', path: '/Users' });
    await call(target, { method: 'GET', path: '/Nope', headers: { authorization: 'ok' } });
    await call(target, { method: 'DELETE', path: '/Users', headers: { authorization: 'ok' } });
    expect(exporter.getFinishedSpans().map((span) => [span.name, span.attributes['http.response.status_code'], span.status.code])).toEqual([
      ['SCIM GET /Users', 401, 0],
      ['SCIM GET', 404, 0],
      ['SCIM DELETE', 405, 0],
    ]);
  });

  it("with the application's registered provider: tracing: { trace, context } from @opentelemetry/api", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    trace.setGlobalTracerProvider(provider);
    try {
      const scim = createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore(), tracing: { trace, context } });
      expect((await scim.handle({ method: 'GET', path: '/Users' })).status).toBe(200);
      expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(['scim.store.query', 'SCIM GET /Users']);
    } finally {
      trace.disable();
    }
  });

  it('without tracing the core loads nothing: no source file imports @opentelemetry', () => {
    const src = fileURLToPath(new URL('../../src/', import.meta.url));
    const files = (dir: string): string[] => readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)]));
    const all = files(src).filter((file) => file.endsWith('.ts'));
    expect(all.length).toBeGreaterThan(50);
    for (const file of all) expect(readFileSync(file, 'utf8'), file).not.toMatch(/^\s*(?:import|export)\b[^\n]*['"]@opentelemetry|import\(\s*['"]@opentelemetry|require\(\s*['"]@opentelemetry/m);
  });
});
