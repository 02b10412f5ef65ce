import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createScimServer } from '@scimkit/core';
import { createNodeHandler } from '@scimkit/node';
import { fromBetterSqlite3 } from '@scimkit/sql';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createFullServerConfig } from '../../../examples/full-server/src/index.js';
import { createAppSchema, createOwnTablesApp } from '../../../examples/own-tables/src/index.js';
import { createSeedService } from '../../../examples/seed-service/src/index.js';
import { runChecks, type CheckReport } from '../src/index.js';
import { FULL_SERVER, OWN_TABLES, SEED_SERVICE, type ExpectedResults } from './support/expected-results.js';

/** Serves `listener` (SCIM at /scim/v2) on an ephemeral port and checks it. */
async function check(listener: RequestListener, token?: string): Promise<CheckReport> {
  const server = createServer(listener);
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
    const scim = createScimServer(createFullServerConfig({ token: 't0ken', cursorSecret: 'examples-test-cursor-secret-of-32-chars' }));
    const report = await check(createNodeHandler(scim, { basePath: '/scim/v2' }), 't0ken');
    expectResults(report, FULL_SERVER);
    // It cleaned up: the last check deleted everything the others created.
    expect(report.results.at(-1)).toMatchObject({ id: 'cleanup.deleted', status: 'pass' });
  });

  it('the seed service fails only its documented deviations', async () => {
    const report = await check(createNodeHandler(createSeedService(), { basePath: '/scim/v2' }));
    expectResults(report, SEED_SERVICE);
    const detail = report.results.find((r) => r.id === 'users.okta-not-found-detail')!.failure!;
    expect(detail.scimkitOption).toBe("notFoundDetail: 'name'");
    expect(detail.exchange?.status).toBe(404);
    expect(report.results.find((r) => r.id === 'patch.entra-create-missing-value-path')!.failure!.scimkitOption).toBe('compatibility.createMissingValuePath');
  });

  it('the own-tables app (SQLite) fails only where its tables keep less than SCIM sends', async () => {
    const connection = fromBetterSqlite3(new Database(':memory:'));
    await createAppSchema(connection.db, connection.dialect);
    try {
      const report = await check(createOwnTablesApp({ connection, token: 't0ken', logger: { log: () => undefined } }), 't0ken');
      expectResults(report, OWN_TABLES);
      // The failures are the shared column, not an option a scimkit server could turn on.
      for (const result of report.results.filter((r) => r.status === 'fail')) expect(result.failure?.scimkitOption, result.id).toBeUndefined();
      expect(report.results.find((r) => r.id === 'patch.pathless-add')?.reason).toMatch(/does not list nickName/);
      expect(report.results.at(-1)).toMatchObject({ id: 'cleanup.deleted', status: 'pass' });
    } finally {
      await connection.db.destroy();
    }
  });
});
