import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzParameters, fuzzRuns, fuzzTimeout, turn } from './fuzz-runs.js';
import { fuzzServer, knownIds, referenceData } from './reference-data.js';
import { heavyRequests, requests } from './request-arbitraries.js';

/**
 * The latency property: on the reference data set (2,000 users like an Entra tenant's, 20 groups,
 * the largest with 2,000 members), no generated request, however hostile (the 385-term filter, 60
 * nested parentheses, sorts on meta.location, PATCHes with thousands of values, 150 repeated query
 * parameters), takes more than 250 ms of CPU time. CPU time (process.cpuUsage), not wall time: the
 * memory store does no I/O, so a request's CPU time is the time it holds the event loop, and it does
 * not grow when other processes load the machine.
 */
const BUDGET_MS = 250;

describe('fuzz: latency', () => {
  const runs = fuzzRuns(150, 0.1);

  it(`no one of ${runs} generated requests takes more than ${BUDGET_MS} ms of CPU over 2,000 users`, async () => {
    const data = referenceData(2_000, 20, 2_000);
    const { server, failures } = fuzzServer(data);
    // Warm up the JIT on each kind of request, so the first ones are not charged for compilation.
    const generated = fc.oneof(requests(knownIds(data)), heavyRequests(knownIds(data)));
    for (const request of fc.sample(generated, { numRuns: 50, seed: 1 })) await server.handle(request);
    let slowest = { ms: 0, request: '' };
    await fc.assert(
      fc.asyncProperty(generated, async (request) => {
        await turn();
        const started = process.cpuUsage();
        await server.handle(request);
        const spent = process.cpuUsage(started);
        const ms = (spent.user + spent.system) / 1000;
        const described = `${request.method} ${request.path} ${JSON.stringify(request.query).slice(0, 200)} ${(request.body ?? '').slice(0, 200)}`;
        if (ms > slowest.ms) slowest = { ms, request: described };
        expect(ms, described).toBeLessThanOrEqual(BUDGET_MS);
      }),
      fuzzParameters(150, 0.1),
    );
    console.info(`fuzz latency: slowest of ${runs} requests took ${slowest.ms.toFixed(1)} ms of CPU: ${slowest.request.slice(0, 160)}`);
    expect(failures).toEqual([]);
  }, fuzzTimeout(runs, 200));
});
