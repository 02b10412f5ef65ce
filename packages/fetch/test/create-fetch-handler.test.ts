import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createMemoryStore, createScimServer, userResourceType } from '@scimkit/core';
import { createFetchHandler } from '@scimkit/fetch';
import { recordingHandler } from '../../../tests/adapter-support/recording-handler.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const userJson = JSON.stringify({ schemas: [USER], userName: 'bjensen' });
const scim = () => createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore(), limits: { maxBodyBytes: 10_000 } });

/** A body stream that never ends: 1 KiB a pull, counting pulls and noting a cancel. */
function endless() {
  const state = { pulls: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      state.pulls++;
      controller.enqueue(new Uint8Array(1024).fill(0x20));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

const post = (url: string, body: string | ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
  new Request(url, { method: 'POST', body, headers: { 'Content-Type': 'application/scim+json', ...headers }, duplex: 'half' } as RequestInit);

describe('createFetchHandler', () => {
  it('passes method, the path under basePath, the decoded query, headers, bytes and the mount URL', async () => {
    const recorder = recordingHandler();
    const handler = createFetchHandler(recorder, { basePath: '/scim/v2/' });
    const query = 'filter=userName%20eq%20%22bj%2Bx%40example.com%22&attributes=userName&attributes=name.givenName';
    const response = await handler(new Request(`https://idp.example.com/scim/v2/Users/2819c223%2F7f76?${query}`, { headers: { 'X-Custom': 'yes' } }));
    expect(response.status).toBe(200);
    const request = recorder.requests[0]!;
    expect(request).toMatchObject({ method: 'GET', path: '/Users/2819c223%2F7f76', baseUrl: 'https://idp.example.com/scim/v2' });
    expect({ ...request.query }).toEqual({ filter: 'userName eq "bj+x@example.com"', attributes: ['userName', 'name.givenName'] });
    expect(request.headers?.['x-custom']).toBe('yes');
    expect(request.body).toBeUndefined();

    await handler(post('https://idp.example.com/scim/v2/Users', userJson));
    expect(new TextDecoder().decode(recorder.requests[1]!.body as Uint8Array)).toBe(userJson);
    await handler(new Request('https://idp.example.com/scim/v2'));
    expect(recorder.requests[2]!.path).toBe('/');
  });

  it('serves a server end to end: 201 with Location on the mount URL, then the resource', async () => {
    const handler = createFetchHandler(scim(), { basePath: '/scim/v2' });
    const created = await handler(post('http://localhost:3000/scim/v2/Users', userJson));
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toContain('application/scim+json');
    const location = created.headers.get('location')!;
    expect(location).toMatch(/^http:\/\/localhost:3000\/scim\/v2\/Users\/[^/]+$/);
    const read = await handler(new Request(location));
    expect(((await read.json()) as { userName: string }).userName).toBe('bjensen');
    expect(read.headers.get('etag')).toBe(created.headers.get('etag'));
  });

  it('answers a SCIM 404 outside basePath, and for a different spelling of it', async () => {
    const handler = createFetchHandler(scim(), { basePath: '/scim/v2' });
    for (const path of ['/other/Users', '/scim/v2x/Users', '/SCIM/V2/Users']) {
      const response = await handler(new Request(`http://localhost${path}`));
      expect(response.status, path).toBe(404);
      expect(((await response.json()) as { status: string }).status).toBe('404');
    }
  });

  it('enforces maxBodyBytes while streaming: cancels an endless body at the chunk past the limit with 413', async () => {
    const { stream, state } = endless();
    const response = await createFetchHandler(scim(), { maxBodyBytes: 4_096 })(post('http://localhost/Users', stream));
    expect(response.status).toBe(413);
    expect(response.headers.get('connection')).toBe('close');
    expect(((await response.json()) as { detail: string }).detail).toContain('4096');
    expect(state.cancelled).toBe(true);
    expect(state.pulls).toBeLessThan(10);
  });

  it('refuses a declared Content-Length over the limit before reading any of the body', async () => {
    const { stream, state } = endless();
    const response = await createFetchHandler(scim())(post('http://localhost/Users', stream, { 'Content-Length': '50000000' }));
    expect(response.status).toBe(413);
    expect(state.pulls).toBeLessThanOrEqual(1); // a stream may pull once when created; nothing is read
  });

  it('answers 408 when the body does not arrive within bodyTimeoutMs', async () => {
    const stalled = new ReadableStream<Uint8Array>({ start: (controller) => controller.enqueue(new TextEncoder().encode('{"userName":')) });
    const response = await createFetchHandler(scim(), { bodyTimeoutMs: 50 })(post('http://localhost/Users', stalled));
    expect(response.status).toBe(408);
    expect(((await response.json()) as { status: string }).status).toBe('408');
  });

  it('answers an invalid Host header with 400, and builds locations from the URL without one', async () => {
    const recorder = recordingHandler();
    const handler = createFetchHandler(recorder, { basePath: '/scim/v2' });
    const bad = await handler(new Request('http://localhost/scim/v2/Users', { headers: { Host: 'user@evil' } }));
    expect(bad.status).toBe(400);
    expect(recorder.requests).toHaveLength(0);
    await handler(new Request('http://localhost:8080/scim/v2/Users'));
    expect(recorder.requests[0]!.baseUrl).toBe('http://localhost:8080/scim/v2');
    await handler(new Request('http://10.0.0.1/scim/v2/Users', { headers: { Host: 'scim.example.com' } }));
    expect(recorder.requests[1]!.baseUrl).toBe('http://scim.example.com/scim/v2');
    await createFetchHandler(recorder, { baseUrl: 'https://public.example/scim/v2', basePath: '/scim/v2' })(new Request('http://10.0.0.1/scim/v2/Users'));
    expect(recorder.requests[2]!.baseUrl).toBe('https://public.example/scim/v2');
  });

  it('writes 204 and 304 without a body, and never rejects when handle() does', async () => {
    const empty = await createFetchHandler({ handle: () => Promise.resolve({ status: 204, headers: {} }) })(new Request('http://localhost/Users/1', { method: 'DELETE' }));
    expect(empty.status).toBe(204);
    expect(await empty.text()).toBe('');
    const failing = await createFetchHandler({ handle: () => Promise.reject(new Error('boom')) })(new Request('http://localhost/Users'));
    expect(failing.status).toBe(500);
    expect(((await failing.json()) as { status: string }).status).toBe('500');
  });

  it('imports nothing but @scimkit/core and its own files, so it runs on Bun, Deno and Workers', () => {
    const dir = new URL('../src/', import.meta.url);
    for (const file of readdirSync(dir)) {
      const source = readFileSync(new URL(file, dir), 'utf8');
      for (const [, from] of source.matchAll(/from '([^']+)'/g)) expect(from, file).toMatch(/^(@scimkit\/core(\/adapter)?|\.\/[\w-]+\.js)$/);
    }
  });
});
