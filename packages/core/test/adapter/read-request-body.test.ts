import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readRequestBody, scimErrorResponse } from '../../src/adapter/index.js';
import { parseQuery } from '../../src/adapter/parse-query.js';

/** A request-like stream: a PassThrough with the headers a Node request has. */
function request(headers: Record<string, string> = {}): PassThrough & { headers: Record<string, string> } {
  return Object.assign(new PassThrough(), { headers });
}
const text = (body: Uint8Array | undefined): string | undefined => (body === undefined ? undefined : new TextDecoder().decode(body));

describe('readRequestBody', () => {
  it('collects the body within the limit; an empty body is undefined', async () => {
    const stream = request();
    const read = readRequestBody(stream, { maxBytes: 10 });
    stream.write('{"a":');
    stream.end('1}');
    const result = await read;
    expect(result.kind).toBe('body');
    expect(result.kind === 'body' && text(result.body)).toBe('{"a":1}');
    const empty = request();
    const none = readRequestBody(empty, { maxBytes: 10 });
    empty.end();
    expect(await none).toEqual({ kind: 'body', body: undefined });
  });

  it('answers an HTTP/1.1 request without Content-Length or Transfer-Encoding as bodiless at once (RFC 9112 §6.3); reads an HTTP/2 one', async () => {
    const bodiless = Object.assign(request(), { httpVersionMajor: 1 });
    // Never ended: a stream it waited on would never settle.
    expect(await readRequestBody(bodiless, { maxBytes: 10 })).toEqual({ kind: 'body', body: undefined });
    expect(bodiless.listenerCount('data')).toBe(0);
    const chunked = Object.assign(request({ 'transfer-encoding': 'chunked' }), { httpVersionMajor: 1 });
    const read = readRequestBody(chunked, { maxBytes: 10 });
    chunked.end('{"a":1}');
    expect(text(((await read) as { body: Uint8Array }).body)).toBe('{"a":1}');
    const http2 = Object.assign(request(), { httpVersionMajor: 2 });
    const streamed = readRequestBody(http2, { maxBytes: 10 });
    http2.end('{"b":2}');
    expect(text(((await streamed) as { body: Uint8Array }).body)).toBe('{"b":2}');
  });

  it('refuses a declared oversize body with a 413 before reading, and one that grows past the limit', async () => {
    const declared = await readRequestBody(request({ 'content-length': '11' }), { maxBytes: 10 });
    expect(declared.kind === 'refused' && declared.response.status).toBe(413);
    const stream = request();
    const read = readRequestBody(stream, { maxBytes: 10 });
    stream.write('x'.repeat(6));
    stream.write('x'.repeat(6));
    const grown = await read;
    expect(grown.kind).toBe('refused');
    if (grown.kind !== 'refused') return;
    expect(grown.response.status).toBe(413);
    expect(grown.response.headers).toMatchObject({ 'Content-Type': 'application/scim+json', Connection: 'close' });
    expect(JSON.parse(grown.response.body ?? '')).toEqual({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '413', detail: 'The request body exceeds 10 bytes.' });
    expect(stream.isPaused()).toBe(true);
  });

  it('answers 408 when the body does not arrive in time', async () => {
    const stream = request();
    const read = readRequestBody(stream, { maxBytes: 10, timeoutMs: 20 });
    stream.write('{');
    const result = await read;
    expect(result.kind === 'refused' && result.response.status).toBe(408);
  });

  it('gives aborted for a client that goes away, before or while sending', async () => {
    const gone = request();
    gone.destroy();
    expect(await readRequestBody(gone, { maxBytes: 10 })).toEqual({ kind: 'aborted' });
    const stream = request();
    const read = readRequestBody(stream, { maxBytes: 10 });
    stream.write('{');
    stream.destroy(new Error('aborted'));
    expect(await read).toEqual({ kind: 'aborted' });
  });
});

describe('parseQuery', () => {
  it('decodes the parameters of a request target; a repeated name gives an array', () => {
    expect({ ...parseQuery('/Users?filter=userName%20eq%20%22a%22&attributes=a&attributes=b') }).toEqual({ filter: 'userName eq "a"', attributes: ['a', 'b'] });
    expect({ ...parseQuery('/Users') }).toEqual({});
  });

  it('keeps names such as __proto__ as plain data', () => {
    const query = parseQuery('?__proto__=x&constructor=y');
    expect(Object.getPrototypeOf(query)).toBeNull();
    expect(query['__proto__']).toBe('x');
    expect(query['constructor']).toBe('y');
  });
});

describe('scimErrorResponse', () => {
  it('is the RFC 7644 §3.12 error with the status and extra headers', () => {
    const response = scimErrorResponse({ status: 400, scimType: 'invalidValue', detail: 'bad' }, { Connection: 'close' });
    expect(response.status).toBe(400);
    expect(response.headers).toEqual({ 'Content-Type': 'application/scim+json', Connection: 'close' });
    expect(JSON.parse(response.body ?? '')).toEqual({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '400', scimType: 'invalidValue', detail: 'bad' });
  });
});
