import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzParameters, fuzzRuns, fuzzTimeout } from './fuzz-runs.js';
import { fuzzServer, knownIds, referenceData, snapshot } from './reference-data.js';
import { requests, type FuzzRequest } from './request-arbitraries.js';
import { expectWellFormed } from './well-formed.js';

const describeRequest = (request: FuzzRequest): string =>
  `${request.method} ${request.path} ${JSON.stringify(request.query).slice(0, 300)} ${JSON.stringify(request.headers).slice(0, 200)} ${(request.body ?? '').slice(0, 300)}`;

/**
 * Property-based fuzzing of the whole pipeline through `handle()`: realistic bodies for POST, PUT,
 * PATCH, .search and Bulk, mutated; random query strings, paths and header values.
 */
describe('fuzz: handle()', () => {
  const runs = fuzzRuns(1_500);

  it(`answers ${runs} generated requests with well-formed SCIM responses below 500, and a rejected request changes nothing`, async () => {
    const data = referenceData(30, 5, 30);
    const { server, store, failures } = fuzzServer(data);
    let rejected = 0;
    await fc.assert(
      fc.asyncProperty(requests(knownIds(data)), async (request) => {
        const before = await snapshot(store);
        const response = await server.handle(request);
        expectWellFormed(response, request, describeRequest(request));
        if (response.status >= 400) {
          rejected++;
          expect(await snapshot(store), `a rejected request changed the store: ${describeRequest(request)}`).toBe(before);
        }
        expect(failures, describeRequest(request)).toEqual([]);
      }),
      fuzzParameters(1_500),
    );
    // Not vacuous: the generator reaches both outcomes.
    expect(rejected).toBeGreaterThan(runs / 10);
    expect(rejected).toBeLessThan(runs);
  }, fuzzTimeout(runs, 5));
});
