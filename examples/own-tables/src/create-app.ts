import { bearerToken, createScimServer, createSchemaRegistry, groupResourceType, URN, userResourceType, type ScimLogger } from '@scimkit/core';
import { scimRouter } from '@scimkit/express';
import { classifySqlError, createSqlStore, mappedSchemas, type SqlConnection } from '@scimkit/sql';
import { sql } from 'kysely';
import express, { type Express } from 'express';
import { mapping } from './mapping.js';

export interface OwnTablesOptions {
  readonly connection: SqlConnection;
  /** `Authorization: Bearer <token>` on every request; open without it. */
  readonly token?: string;
  readonly logger?: ScimLogger;
}

const resourceTypes = [{ ...userResourceType, schemaExtensions: [{ schema: URN.enterpriseUser, required: false }] }, groupResourceType];

/**
 * The application: SCIM at /scim/v2 over its own tables, and its own routes beside it. /Schemas and
 * /ResourceTypes advertise what the tables keep (`mappedSchemas`); a value of a kept attribute the
 * tables cannot hold (a home email) is ignored and reported to the logger. The client settings are
 * the full reference server's ('entra', PATCH answered 204).
 */
export function createOwnTablesApp(options: OwnTablesOptions): Express {
  const registry = createSchemaRegistry({ resourceTypes });
  const store = createSqlStore({ ...options.connection, mapping, unmapped: 'ignore', existingRows: 'adopt', ...(options.logger === undefined ? {} : { logger: options.logger }) });
  const scim = createScimServer({
    resourceTypes,
    schemas: mappedSchemas(registry, mapping),
    store,
    compatibility: 'entra',
    // A top-level attribute the tables do not keep (not in the served schemas) is dropped by the core;
    // sub-attributes and elements of kept attributes reach the store, which logs what it does not keep.
    unknownAttributes: 'ignore',
    patchResponse: 'noContent',
    notFoundDetail: 'name',
    discovery: { metaSchemas: true },
    bulk: {},
    pagination: {},
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(options.token === undefined || options.token === '' ? {} : bearerToken({ tokens: [{ token: options.token, principal: 'identity-provider' }] })),
  });
  const app = express();
  app.disable('x-powered-by');
  app.use('/scim/v2', scimRouter(scim));
  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  // Probes for an orchestrator (docs/operations/database-failures.md): live while the process serves
  // HTTP (a database outage does not make it fail); ready while the database answers, within 2 s.
  app.get('/livez', (_req, res) => {
    res.type('text/plain').send('ok\n');
  });
  app.get('/readyz', (_req, res) => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error('the readiness check took longer than 2000 ms')), 2_000)));
    Promise.race([sql`SELECT 1 AS one`.execute(options.connection.db), late]).then(
      () => res.type('text/plain').send('ready\n'),
      (error: unknown) => res.status(503).type('text/plain').send(`not ready: ${classifySqlError(error)?.message ?? (error instanceof Error ? error.message : String(error))}\n`),
    ).finally(() => clearTimeout(timer));
  });
  return app;
}
