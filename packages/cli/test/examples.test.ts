import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createScimServer, type ScimServer } from '@scimkit/core';
import { createNodeHandler } from '@scimkit/node';
import { describe, expect, it } from 'vitest';
import { createFullServerConfig } from '../../../examples/full-server/src/index.js';
import { createSeedService } from '../../../examples/seed-service/src/index.js';
import { runChecks, type CheckReport } from '../src/index.js';
import { FULL_SERVER, SEED_SERVICE, type ExpectedResults } from './support/expected-results.js';

async function check(scim: ScimServer, token?: string): Promise<CheckReport> {
  const server = createServer(createNodeHandler(scim, { basePath: '/scim/v2' }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await runChecks({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/scim/v2`, ...(token === undefined ? {} : { token }) });
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

function expectResults(report: CheckReport, expected: ExpectedResults): void {
  const ids = (status: string) => report.results.filter((r) => r.status === status).map((r) => r.id);
  expect(ids('fail')).toEqual(expected.failing);
  expect(ids('skip')).toEqual(expected.skipped);
  expect(report.summary.passed).toBe(report.results.length - expected.failing.length - expected.skipped.length);
}

describe('scimkit check against the example servers', () => {
  it('the full reference server passes every check', async () => {
    const report = await check(createScimServer(createFullServerConfig({ token: 't0ken', cursorSecret: 'examples-test-cursor-secret-of-32-chars' })), 't0ken');
    expectResults(report, FULL_SERVER);
    // It cleaned up: the last check deleted everything the others created.
    expect(report.results.at(-1)).toMatchObject({ id: 'cleanup.deleted', status: 'pass' });
  });

  it('the seed service fails only its documented deviations', async () => {
    const report = await check(createSeedService());
    expectResults(report, SEED_SERVICE);
    const detail = report.results.find((r) => r.id === 'users.okta-not-found-detail')!.failure!;
    expect(detail.scimkitOption).toBe("notFoundDetail: 'name'");
    expect(detail.exchange?.status).toBe(404);
    expect(report.results.find((r) => r.id === 'patch.entra-create-missing-value-path')!.failure!.scimkitOption).toBe('compatibility.createMissingValuePath');
  });
});
