import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerClientError, createNodeHandler } from '@scimkit/node';
import { createSeedService } from '../../examples/seed-service/src/index.js';
import { fuzzParameters, fuzzRuns, fuzzTimeout } from '../../packages/core/test/fuzz/fuzz-runs.js';
import { headers, query, requests, URN } from '../../packages/core/test/fuzz/request-arbitraries.js';
import { expectWellFormed } from '../../packages/core/test/fuzz/well-formed.js';
import { rawRequest } from './raw-http.js';

/**
 * The fuzz suite through the Node adapter and a real socket, on the seed service with a bearer
 * token: generated requests as raw bytes (random methods, paths, query strings, header values,
 * mutated bodies; with, without or with a wrong token). Every answer is a well-formed SCIM response
 * below 500, and a rejected request leaves the users as they were.
 */
const TOKEN = 's3cret';
const service = createSeedService({ bearerToken: TOKEN, logger: { log: (record) => void (record.level === 'error' && failures.push(record.message)) } });
const failures: string[] = [];
let server: Server;
let port = 0;

beforeAll(async () => {
  server = createServer(createNodeHandler(service, { basePath: '/scim/v2' }));
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  for (let i = 0; i < 20; i++) {
    const created = await service.handle({
      method: 'POST',
      path: '/Users',
      headers: { 'content-type': 'application/scim+json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ schemas: [URN.user], userName: `u${i}@example.com`, emails: [{ value: `u${i}@example.com`, type: 'work' }] }),
    });
    ids.push((JSON.parse(created.body ?? '{}') as { id: string }).id);
  }
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
const ids: string[] = [];

/** Every user as stored, read in-process (not through the fuzzed socket). */
async function users(): Promise<string | undefined> {
  return (await service.handle({ method: 'GET', path: '/Users', query: { count: '1000' }, headers: { authorization: `Bearer ${TOKEN}` } })).body;
}

const token = fc.oneof({ weight: 6, arbitrary: fc.constant(`Bearer ${TOKEN}`) }, { weight: 1, arbitrary: fc.constantFrom(undefined, 'Bearer wrong', `bearer  ${TOKEN}`, TOKEN, `Bearer ${TOKEN}x`, 'Basic czNjcmV0') });
const rawMethod = fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom('get', 'PROPFIND', 'G\u00c9T', 'CONNECT', 'PRI', '') });
/** Raw bytes in a request target or header value: what Node's parser is left to refuse (a SCIM 400). */
const rawNoise = fc.oneof({ weight: 8, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom('%', '%zz', ' ', '\u00ff', '#frag', '?&&==', '\t') });

function encodeQuery(q: Record<string, string | string[]>): string {
  const pairs = Object.entries(q).flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((v) => `${encodeURIComponent(name)}=${encodeURIComponent(v)}`));
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}

describe('fuzz: the Node adapter', () => {
  const runs = fuzzRuns(200, 0.2);

  it(`answers ${runs} generated raw requests with well-formed SCIM responses below 500; rejected ones change nothing`, async () => {
    const generated = fc.tuple(fc.constant(null).chain(() => requests({ users: ids, groups: ['none'] })), token, rawMethod, rawNoise, query, headers);
    let rejected = 0;
    await fc.assert(
      fc.asyncProperty(generated, async ([request, authorization, method, noise, q, h]) => {
        const verb = method ?? (request.method === '' ? 'GET' : request.method);
        const target = `/scim/v2${request.path}${encodeQuery({ ...request.query, ...q })}${noise}`;
        const headerLines = Object.entries({ ...request.headers, ...h, ...(authorization === undefined ? {} : { authorization }) })
          .filter(([name]) => name.toLowerCase() !== 'host')
          .map(([name, value]) => `${name}: ${value.replace(/[\r\n]/g, ' ')}\r\n`)
          .join('');
        const body = Buffer.from(request.body ?? '', 'utf8');
        const head = `${verb} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\nContent-Length: ${body.length}\r\n${headerLines}\r\n`;
        const context = `${head.slice(0, 400)}${(request.body ?? '').slice(0, 200)}`;
        const before = await users();
        const response = await rawRequest(port, Buffer.concat([Buffer.from(head, 'latin1'), body]));
        // Node's http server hands CONNECT to a 'connect' listener and closes the socket when there is
        // none: no answer, no SCIM error (the servers here tunnel nothing). Every other request is answered.
        if (verb === 'CONNECT' && response === undefined) return;
        expect(response, context).toBeDefined();
        if (response === undefined) return;
        // A request line Node's parser refuses is answered by answerClientError before any method is
        // known: its 400 carries a body even when the garbled line began with HEAD.
        const unparsed = response.status === 400 && /not valid HTTP/.test(response.body ?? '');
        expectWellFormed(response, { method: unparsed ? 'GET' : verb, path: request.path }, context);
        if (response.status >= 400) {
          rejected++;
          expect(await users(), `a rejected request changed the users: ${context}`).toBe(before);
        }
        expect(failures, context).toEqual([]);
      }),
      fuzzParameters(200, 0.2),
    );
    expect(rejected).toBeGreaterThan(runs / 10);
  }, fuzzTimeout(runs, 60));
});
