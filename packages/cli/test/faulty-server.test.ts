import { describe, expect, it } from 'vitest';
import { ALL_CHECKS, runChecks, type Tag } from '../src/index.js';
import { FAULTS, FAULTY_TOKEN } from './support/faults.js';
import { serveFaulty } from './support/serve-faulty.js';

/**
 * A deliberately faulty server proves that each check can fail: every fault below breaks the full
 * reference server in one way, and the checks it targets must fail against it.
 */
describe('scimkit check against a deliberately faulty server', () => {
  it('the server without a fault passes every check (so each failure below is the fault)', async () => {
    const server = await serveFaulty();
    try {
      const report = await runChecks({ baseUrl: server.url, token: FAULTY_TOKEN });
      expect(report.results.filter((r) => r.status !== 'pass').map((r) => `${r.id}: ${r.failure?.message ?? r.reason}`)).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('every check is the target of at least one fault', () => {
    const targeted = new Set(FAULTS.flatMap((fault) => fault.targets));
    const ids = [...ALL_CHECKS.map((check) => check.id), 'cleanup.deleted'];
    expect(ids.filter((id) => !targeted.has(id))).toEqual([]);
    expect([...targeted].filter((id) => !ids.includes(id))).toEqual([]);
  });

  for (const fault of FAULTS) {
    it(`${fault.name}: fails ${fault.targets.join(', ')}`, async () => {
      const server = await serveFaulty(fault);
      try {
        const tags = [...new Set(ALL_CHECKS.filter((check) => fault.targets.includes(check.id)).map((check) => check.tag))] as Tag[];
        const report = await runChecks({ baseUrl: server.url, token: FAULTY_TOKEN, tags });
        const failed = report.results.filter((r) => r.status === 'fail').map((r) => r.id);
        expect(failed).toEqual(expect.arrayContaining([...fault.targets]));
        for (const result of report.results.filter((r) => fault.targets.includes(r.id))) {
          // A failure says what was found and what was expected, and shows what was sent and what came back.
          expect(result.failure?.message, result.id).toBeTruthy();
          expect(result.failure?.expected, result.id).toBeTruthy();
          expect(result.failure?.exchange, result.id).toMatchObject({ method: expect.any(String), url: expect.stringContaining(server.url), status: expect.any(Number) });
          // For a scimkit server, the option that the fault turned off.
          if (fault.option !== undefined) expect(result.failure?.scimkitOption, result.id).toBe(fault.option);
        }
      } finally {
        await server.close();
      }
    });
  }
});
