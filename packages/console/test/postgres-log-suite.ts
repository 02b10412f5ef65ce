import { bearerToken, createMemoryStore, createScimServer, userResourceType } from '@scimkit/core';
import { describe, expect, it } from 'vitest';
import { createPostgresLogStore, createRequestLog, type LogSqlClient, type RequestLogRecord } from '../src/index.js';
import { provisionAsEntra } from './entra-flow.js';

const TOKEN = 'entra-secret-token-0123456789';

function record(tenant: string, time: number, status: number, id: string): RequestLogRecord {
  return { id, tenant, requestId: id, time, durationMs: 1, method: 'GET', path: '/Users', query: {}, status, client: 'c', changes: [], requestHeaders: {} };
}

/** The PostgreSQL log store's behaviour, over any client (PGlite in `npm test`, the server with SCIMKIT_PG_URL). */
export function describePostgresLog(name: string, open: () => Promise<{ client: LogSqlClient; close: () => Promise<void> }>): void {
  describe(`the request log in PostgreSQL (${name})`, () => {
    it('keeps an Entra provisioning and answers the same queries as memory', async () => {
      const { client, close } = await open();
      try {
        const log = createRequestLog({ store: createPostgresLogStore({ client }) });
        const scim = createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore(), ...bearerToken({ tokens: [{ token: TOKEN, principal: 'entra-app', tenant: 'acme' }] }), requestLog: log });
        const { id } = await provisionAsEntra(scim, TOKEN, 'bjensen@example.com');
        await log.flush();
        const { records } = await log.query({ tenant: 'acme' });
        expect(records.map((r) => r.status)).toEqual([400, 200, 201]);
        expect(records[0]?.hint?.option).toBe('createMissingValuePath');
        expect(JSON.stringify(records)).not.toContain(TOKEN);
        expect((await log.query({ tenant: 'acme', userName: 'JENSEN' })).records).toHaveLength(3);
        expect((await log.query({ tenant: 'acme', resourceId: id, status: 'error' })).records).toHaveLength(1);
        expect((await log.query({ tenant: 'acme', client: 'nobody' })).records).toHaveLength(0);
        expect((await log.query({ tenant: 'other' })).records).toHaveLength(0);
        const page = await log.query({ tenant: 'acme', limit: 2 });
        expect(page.records).toHaveLength(2);
        expect((await log.query({ tenant: 'acme', limit: 2, after: page.next as string })).records).toHaveLength(1);
        expect(await log.get('acme', records[1]?.id as string)).toEqual(records[1]);
        expect(await log.clients('acme')).toMatchObject([{ client: 'entra-app', requests: 3, errors: 1, idp: 'Microsoft Entra ID', lastStatus: 400 }]);
        const buckets = await log.rates('acme', Date.now() - 60_000, Date.now() + 1, 6_000);
        expect(buckets.reduce((n, b) => n + b.requests, 0)).toBe(3);
        expect(await log.tenants()).toEqual(['acme']);
        await log.close();
      } finally {
        await close();
      }
    });

    it('prunes by age and by count per tenant', async () => {
      const { client, close } = await open();
      try {
        const store = createPostgresLogStore({ client, table: 'log_retention', maxAgeMs: 60_000, maxRecords: 3 });
        const now = Date.now();
        await store.append([record('a', now - 120_000, 200, 'old'), ...[1, 2, 3, 4, 5].map((i) => record('a', now - i * 1000, 200, `a${i}`)), record('b', now, 500, 'b1')]);
        await store.prune();
        expect((await store.query({ tenant: 'a' })).records.map((r) => r.id)).toEqual(['a1', 'a2', 'a3']);
        expect((await store.query({ tenant: 'b', status: '5xx' })).records.map((r) => r.id)).toEqual(['b1']);
        const { rows } = await client.query<{ n: string | number }>('SELECT count(*) AS n FROM log_retention');
        expect(Number(rows[0]?.n)).toBe(4);
      } finally {
        await close();
      }
    });
  });
}
