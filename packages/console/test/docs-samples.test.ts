import { PGlite } from '@electric-sql/pglite';
import { createMemoryStore, createScimServer, userResourceType, type ScimRequest } from '@scimkit/core';
import { fromPGlite } from '@scimkit/postgres';
import { describe, expect, it } from 'vitest';
import { createConsole, createPostgresLogStore, createRequestLog, passwordLogin } from '../src/index.js';

/** The samples of docs/concepts/console.md, run: each doc block quotes a region of this file. */
const config = { resourceTypes: [userResourceType], store: createMemoryStore() };
const isAdmin = (request: ScimRequest): boolean => request.headers?.['x-admin'] === 'yes';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';

describe('docs/concepts/console.md', () => {
  it('records, queries, keeps in PostgreSQL, redacts, serves a console', async () => {
    // docs:start setup
    const requestLog = createRequestLog(); // a ring of the newest 5,000 records in memory
    const scim = createScimServer({ ...config, requestLog });
    // docs:end setup
    const created = await scim.handle({ method: 'POST', path: '/Users', body: JSON.stringify({ schemas: [USER], userName: 'bjensen' }) });
    const id = (JSON.parse(created.body ?? '{}') as { id: string }).id;
    await scim.handle({ method: 'GET', path: '/Users/nope' });
    await requestLog.flush();
    const from = Date.now() - 3_600_000;
    const to = Date.now() + 1;

    // docs:start query
    const errors = await requestLog.query({ tenant: '', status: 'error', limit: 50 }); // newest first
    const aboutOne = await requestLog.query({ tenant: '', resourceId: id, from });
    const page = await requestLog.query({ tenant: '', userName: 'bjensen', limit: 1 });
    const nextPage = page.next === undefined ? undefined : await requestLog.query({ tenant: '', userName: 'bjensen', limit: 1, after: page.next });
    const record = await requestLog.get('', page.records[0]?.id ?? '');
    const clients = await requestLog.clients(''); // each client, its request and error counts, last call
    const perMinute = await requestLog.rates('', from, to, 60_000); // requests and errors per minute
    // docs:end query
    expect(errors.records.map((r) => r.status)).toEqual([404]);
    expect(aboutOne.records).toHaveLength(1);
    expect(nextPage).toBeUndefined(); // bjensen has one request: one page
    expect(record?.userName).toBe('bjensen');
    expect(clients[0]?.requests).toBe(2);
    expect(perMinute.reduce((n, b) => n + b.requests, 0)).toBe(2);

    const db = new PGlite();
    // docs:start postgres
    const client = fromPGlite(db); // or fromPgPool(pool): the store's own connection will do
    const durableLog = createRequestLog({ store: createPostgresLogStore({ client, maxAgeMs: 30 * 86_400_000 }) });
    // docs:end postgres
    const durable = createScimServer({ ...config, store: createMemoryStore(), requestLog: durableLog });
    await durable.handle({ method: 'GET', path: '/Users' });
    await durableLog.flush();
    expect((await durableLog.query({ tenant: '' })).records).toHaveLength(1);
    await durableLog.close();
    await db.close();

    // docs:start redaction
    const maskedLog = createRequestLog({ redaction: { personalData: 'mask', personalFields: ['emails', 'phoneNumbers', 'employeeNumber'] } });
    // docs:end redaction
    const masked = createScimServer({ ...config, store: createMemoryStore(), requestLog: maskedLog });
    await masked.handle({ method: 'POST', path: '/Users', body: JSON.stringify({ schemas: [USER], userName: 'x', emails: [{ value: 'private@example.com' }] }) });
    await maskedLog.flush();
    expect(JSON.stringify(await maskedLog.query({ tenant: '' }))).not.toContain('private@example.com');

    // docs:start console
    const scimConsole = createConsole({
      log: requestLog, // the same log as createScimServer({ requestLog })
      scim, // optional: browse users and groups with their membership
      authorize: (request) => isAdmin(request), // your own check: true, a name to show, or false
      login: passwordLogin('a long console password'), // optional: a login form for the others
      basePath: '/console', // where it is mounted: the prefix of every link it writes
    });
    // docs:end console
    expect((await scimConsole.handle({ method: 'GET', path: '/requests', headers: { 'x-admin': 'yes' } })).status).toBe(200);
    expect((await scimConsole.handle({ method: 'GET', path: '/requests', headers: {} })).status).toBe(303);
  });
});
