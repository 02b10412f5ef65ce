import { describe, expect, it } from 'vitest';
import { createAdapterPipeline, type AdapterRequest, type ScimHandler } from '../../src/adapter/index.js';
import type { ScimRequest } from '../../src/index.js';

function handler(): ScimHandler & { requests: ScimRequest[] } {
  const requests: ScimRequest[] = [];
  return {
    requests,
    handle: (request) => (requests.push(request), Promise.resolve({ status: 200, headers: {}, body: '{}' })),
  };
}

const incoming = (overrides: Partial<AdapterRequest> = {}): AdapterRequest => ({
  method: 'POST',
  target: '/scim/v2/Users?count=1',
  headers: { host: 'idp.example' },
  scheme: 'https',
  host: 'idp.example',
  readBody: () => ({ kind: 'body', body: new TextEncoder().encode('{}') }),
  ...overrides,
});

describe('createAdapterPipeline', () => {
  it('hands handle() the path below mountPath + basePath, the decoded query, the body and the mount URL', async () => {
    const server = handler();
    const response = await createAdapterPipeline(server, { basePath: '/v2' })(incoming({ target: '/v2/Users?count=1', mountPath: '/scim' }));
    expect(response?.status).toBe(200);
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/Users', query: { count: '1' }, baseUrl: 'https://idp.example/scim/v2' });
  });

  it('answers a body cut short 400 with Connection: close, without handle()', async () => {
    const server = handler();
    const response = await createAdapterPipeline(server)(incoming({ target: '/Users', readBody: () => ({ kind: 'aborted' }) }));
    expect(response).toMatchObject({ status: 400, headers: { Connection: 'close' } });
    expect(JSON.parse(response!.body!)).toMatchObject({ status: '400', detail: 'The request body could not be read' });
    expect(server.requests).toEqual([]);
  });

  it('gives the server body limit to readBody unless the adapter has its own, and sends its refusal', async () => {
    const limits: number[] = [];
    const server = { ...handler(), config: { limits: { maxBodyBytes: 7 } } };
    await createAdapterPipeline(server)(incoming({ target: '/Users', readBody: (given) => (limits.push(given.maxBytes), { kind: 'body', body: undefined }) }));
    await createAdapterPipeline(server, { maxBodyBytes: 3 })(incoming({ target: '/Users', readBody: (given) => (limits.push(given.maxBytes), { kind: 'body', body: undefined }) }));
    expect(limits).toEqual([7, 3]);
  });

  it('reads no body for a request admit() refuses, and none outside basePath', async () => {
    let reads = 0;
    const refusing: ScimHandler = { ...handler(), admit: () => Promise.resolve({ status: 429, headers: {}, body: '{}' }) };
    const readBody = (): { kind: 'body'; body: undefined } => (reads++, { kind: 'body', body: undefined });
    expect((await createAdapterPipeline(refusing)(incoming({ readBody })))?.status).toBe(429);
    expect(await createAdapterPipeline(handler(), { basePath: '/scim/v2' })(incoming({ target: '/scim/v2x/Users', readBody }))).toBeUndefined();
    expect(reads).toBe(0);
  });

  it('answers an invalid Host 400 and a handle() that throws 500, never rejecting', async () => {
    expect((await createAdapterPipeline(handler())(incoming({ target: '/Users', host: 'user@evil' })))?.status).toBe(400);
    const throwing: ScimHandler = { handle: () => Promise.reject(new Error('boom')) };
    expect((await createAdapterPipeline(throwing)(incoming({ target: '/Users' })))?.status).toBe(500);
  });
});
