import { describe, expect, it } from 'vitest';
import type { ChangeEvent, RequestEvent, ResponseEvent, ScimLogRecord } from '../../src/index.js';
import { call, post, server, user } from './helpers.js';
import { recordingStore } from './recording-store.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

describe('request id', () => {
  it('echoes a valid X-Request-Id on every response, errors and 304 included', async () => {
    const target = server();
    const created = await call(target, post('/Users', user('rid'), { headers: { 'content-type': 'application/scim+json', 'X-Request-Id': 'req-42' } }));
    expect(created.headers['X-Request-Id']).toBe('req-42');
    for (const request of [{ method: 'GET', path: '/Nope' }, { method: 'DELETE', path: '/Users' }, { method: 'GET', path: '/Users/unknown' }]) {
      expect((await call(target, { ...request, headers: { 'x-request-id': 'same-id' } })).headers['X-Request-Id']).toBe('same-id');
    }
    const version = created.headers['ETag'] as string;
    const notModified = await target.handle({ method: 'GET', path: `/Users/${created.body['id']}`, headers: { 'if-none-match': version, 'x-request-id': 'cond' } });
    expect(notModified.status).toBe(304);
    expect(notModified.headers['X-Request-Id']).toBe('cond');
  });

  it('takes the trace id of a valid traceparent, else generates a UUID', async () => {
    const target = server();
    const id = async (headers: Record<string, string>) => (await call(target, { method: 'GET', path: '/Users', headers })).headers['X-Request-Id'];
    expect(await id({ traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01` })).toBe(TRACE_ID);
    // X-Request-Id wins over traceparent.
    expect(await id({ traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01`, 'x-request-id': 'mine' })).toBe('mine');
    const generated = new Set<string | undefined>();
    for (const headers of [
      {},
      { 'x-request-id': '' },
      { 'x-request-id': 'has space' },
      { 'x-request-id': 'ctl\u0001' },
      { 'x-request-id': 'é' },
      { 'x-request-id': 'x'.repeat(129) },
      { traceparent: `00-${'0'.repeat(32)}-00f067aa0ba902b7-01` },
      { traceparent: `00-${TRACE_ID}-${'0'.repeat(16)}-01` },
      { traceparent: `ff-${TRACE_ID}-00f067aa0ba902b7-01` },
      { traceparent: `00-${TRACE_ID.toUpperCase()}-00f067aa0ba902b7-01` },
      { traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01-extra` },
    ]) {
      const value = await id(headers);
      expect(value, JSON.stringify(headers)).toMatch(UUID);
      generated.add(value);
    }
    expect(generated.size).toBe(11);
    expect(await id({ 'x-request-id': 'x'.repeat(128) })).toBe('x'.repeat(128));
    // A future version may carry more fields (W3C Trace Context §3.2.4).
    expect(await id({ traceparent: `01-${TRACE_ID}-00f067aa0ba902b7-01-future` })).toBe(TRACE_ID);
  });

  it('reaches every store call, the change event, the hooks and the log records', async () => {
    const { store, calls } = recordingStore();
    const changes: ChangeEvent[] = [];
    const requests: RequestEvent[] = [];
    const responses: ResponseEvent[] = [];
    const records: ScimLogRecord[] = [];
    const target = server({
      store,
      onChange: (event) => void changes.push(event),
      onRequest: (event) => void requests.push(event),
      onResponse: (event) => void responses.push(event),
      logger: { log: (record) => void records.push(record) },
    });
    const headers = { 'content-type': 'application/scim+json', 'x-request-id': 'trace-me' };
    const id = (await call(target, post('/Users', user('ctx'), { headers }))).body['id'] as string;
    await call(target, { method: 'PATCH', path: `/Users/${id}`, headers, body: JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'add', path: 'title', value: 't' }] }) });
    await call(target, { method: 'GET', path: '/Users', headers });
    await call(target, { method: 'DELETE', path: `/Users/${id}`, headers });
    expect(calls.length).toBeGreaterThanOrEqual(5);
    for (const { ctx } of calls) expect(ctx?.requestId).toBe('trace-me');
    expect(changes.map((event) => [event.operation, event.requestId])).toEqual([['create', 'trace-me'], ['patch', 'trace-me'], ['delete', 'trace-me']]);
    expect(requests.map((event) => [event.operation, event.requestId, event.resourceType])).toEqual([
      ['create', 'trace-me', 'User'],
      ['patch', 'trace-me', 'User'],
      ['list', 'trace-me', 'User'],
      ['delete', 'trace-me', 'User'],
    ]);
    expect(requests[1]?.resourceId).toBe(id);
    expect(responses.map((event) => [event.status, event.requestId, event.method])).toEqual([[201, 'trace-me', 'POST'], [200, 'trace-me', 'PATCH'], [200, 'trace-me', 'GET'], [204, 'trace-me', 'DELETE']]);
    expect(records.filter((record) => record.level === 'info').map((record) => record.requestId)).toEqual(['trace-me', 'trace-me', 'trace-me', 'trace-me']);
  });
});

describe('structured log records', () => {
  it('one info record per answered request: method, path, status, duration, request id', async () => {
    const records: ScimLogRecord[] = [];
    const target = server({ logger: { log: (record) => void records.push(record) } });
    await call(target, { method: 'GET', path: '/Users', headers: { 'x-request-id': 'a' } });
    await call(target, { method: 'GET', path: '/Nowhere', headers: { 'x-request-id': 'b' } });
    expect(records).toEqual([
      { level: 'info', message: 'request answered', requestId: 'a', method: 'GET', path: '/Users', status: 200, durationMs: expect.any(Number) },
      { level: 'info', message: 'request answered', requestId: 'b', method: 'GET', path: '/Nowhere', status: 404, durationMs: expect.any(Number) },
    ]);
    expect(records.every((record) => (record.durationMs ?? -1) >= 0)).toBe(true);
  });

  it('an unexpected failure is an error record with the request fields and the thrown error', async () => {
    const records: ScimLogRecord[] = [];
    const failure = new Error('disk on fire');
    const { store } = recordingStore();
    const target = server({
      store: { ...store, query: () => Promise.reject(failure) },
      authenticate: () => ({ ok: true, tenant: 'acme' }),
      logger: { log: (record) => void records.push(record) },
    });
    const reply = await call(target, { method: 'GET', path: '/Users', headers: { 'x-request-id': 'boom' } });
    expect(reply.status).toBe(500);
    expect(records[0]).toEqual({ level: 'error', message: 'unexpected failure while handling a request', requestId: 'boom', method: 'GET', path: '/Users', tenant: 'acme', error: failure });
    expect(records[1]).toMatchObject({ level: 'info', status: 500, tenant: 'acme', requestId: 'boom' });
  });

  it('the default logger writes errors to console.error and nothing for answered requests', async () => {
    const original = console.error;
    const written: unknown[][] = [];
    console.error = (...args: unknown[]) => void written.push(args);
    try {
      const { store } = recordingStore();
      const target = server({ store: { ...store, get: () => Promise.reject(new Error('down')) }, logger: undefined as never });
      await call(target, { method: 'GET', path: '/Users' });
      expect(written).toEqual([]);
      await call(target, { method: 'GET', path: '/Users/x', headers: { 'x-request-id': 'r1' } });
      expect(written).toHaveLength(1);
      expect(written[0]?.[0]).toBe('scimkit: unexpected failure while handling a request');
      expect(written[0]?.[1]).toMatchObject({ requestId: 'r1', method: 'GET', path: '/Users/x' });
    } finally {
      console.error = original;
    }
  });
});

describe('onRequest and onResponse', () => {
  it('onRequest runs after authentication with principal and tenant; onResponse for refused requests too', async () => {
    const requests: RequestEvent[] = [];
    const responses: ResponseEvent[] = [];
    const target = server({
      authenticate: (request) => (request.headers?.['authorization'] === 'ok' ? { ok: true, principal: 'okta', tenant: 't1' } : { ok: false }),
      onRequest: (event) => void requests.push(event),
      onResponse: (event) => void responses.push(event),
    });
    await call(target, { method: 'GET', path: '/Users', headers: { authorization: 'ok', 'x-request-id': 'r1' } });
    await call(target, { method: 'GET', path: '/Users', headers: { 'x-request-id': 'r2' } });
    await call(target, { method: 'GET', path: '/Nope', headers: { 'x-request-id': 'r3' } });
    await call(target, { method: 'GET', path: '/Nope', headers: { authorization: 'ok', 'x-request-id': 'r4' } });
    expect(requests).toEqual([{ requestId: 'r1', method: 'GET', path: '/Users', tenant: 't1', principal: 'okta', operation: 'list', resourceType: 'User' }]);
    expect(responses).toEqual([
      { requestId: 'r1', method: 'GET', path: '/Users', tenant: 't1', principal: 'okta', operation: 'list', resourceType: 'User', status: 200, durationMs: expect.any(Number) },
      { requestId: 'r2', method: 'GET', path: '/Users', operation: 'list', resourceType: 'User', status: 401, durationMs: expect.any(Number) },
      // Authentication answers before routing: an unauthenticated client learns nothing of the routes.
      { requestId: 'r3', method: 'GET', path: '/Nope', status: 401, durationMs: expect.any(Number) },
      { requestId: 'r4', method: 'GET', path: '/Nope', principal: 'okta', status: 404, durationMs: expect.any(Number) },
    ]);
  });

  it('are awaited, and a throwing or rejecting hook is reported and changes no response', async () => {
    const errors: ScimLogRecord[] = [];
    const order: string[] = [];
    const target = server({
      onRequest: async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push('onRequest');
        throw new Error('audit store down');
      },
      onResponse: () => {
        order.push('onResponse');
        return Promise.reject(new Error('metrics down'));
      },
      logger: { log: (record) => void (record.level === 'error' && errors.push(record)) },
    });
    const reply = await call(target, post('/Users', user('hooks'), { headers: { 'content-type': 'application/scim+json', 'x-request-id': 'h' } }));
    order.push('answered');
    expect(reply.status).toBe(201);
    expect(order).toEqual(['onRequest', 'onResponse', 'answered']);
    expect(errors.map((record) => [record.message, (record.error as Error).message, record.requestId])).toEqual([
      ['the onRequest hook failed', 'audit store down', 'h'],
      ['the onResponse hook failed', 'metrics down', 'h'],
    ]);
  });
});
