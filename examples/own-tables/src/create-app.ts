import { bearerToken, createScimServer, createSchemaRegistry, groupResourceType, URN, userResourceType, type ScimLogger } from '@scimkit/core';
import { createScimRouter } from '@scimkit/express';
import { classifySqlError, createSqlStore, mappedSchemas, type SqlConnection, type UnmappedPolicy } from '@scimkit/sql';
import { sql } from 'kysely';
import express, { type Express } from 'express';
import { mapping } from './mapping.js';

export interface OwnTablesOptions {
  readonly connection: SqlConnection;
  /** `Authorization: Bearer <token>` on every request; open without it. */
  readonly token?: string;
  readonly logger?: ScimLogger;
  /**
   * An attribute the tables do not keep: `'ignore'` (default) writes the rest, and reports each
   * one to `logger` (a `warn`) and to `onIgnored`; `'reject'` answers 400 invalidValue naming it.
   */
  readonly unmapped?: UnmappedPolicy;
  readonly onIgnored?: (ignored: { readonly resourceType: string; readonly path: string; readonly id?: string; readonly tenant?: string }) => void;
}

const resourceTypes = [{ ...userResourceType, schemaExtensions: [{ schema: URN.enterpriseUser, required: false }] }, groupResourceType];

/**
 * The application: SCIM at /scim/v2 over its own tables, and its own routes beside it. /Schemas and
 * /ResourceTypes advertise what the tables keep (`mappedSchemas`). What they do not keep follows one
 * policy: the core meets the top-level attributes no served schema declares (`nickName`), the store
 * the parts of kept ones no column holds (a home email); under `'ignore'` both report each to the
 * logger and to `onIgnored`. The client settings are the full reference server's ('entra', PATCH
 * answered 204).
 */
export function createOwnTablesApp(options: OwnTablesOptions): Express {
  const registry = createSchemaRegistry({ resourceTypes });
  const unmapped = options.unmapped ?? 'ignore';
  const { logger, onIgnored } = options;
  const store = createSqlStore({ ...options.connection, mapping, unmapped, existingRows: 'adopt', ...(logger === undefined ? {} : { logger }), ...(onIgnored === undefined ? {} : { onIgnored }) });
  const scim = createScimServer({
    resourceTypes,
    schemas: mappedSchemas(registry, mapping),
    store,
    compatibility: 'entra',
    unknownAttributes: unmapped,
    ...(onIgnored === undefined ? {} : { onIgnoredAttribute: onIgnored }),
    patchResponse: 'noContent',
    notFoundDetail: 'name',
    discovery: { metaSchemas: true },
    bulk: {},
    pagination: {},
    ...(logger === undefined ? {} : { logger }),
    ...(options.token === undefined || options.token === '' ? {} : bearerToken({ tokens: [{ token: options.token, principal: 'identity-provider' }] })),
  });
  const app = express();
  app.disable('x-powered-by');
  app.use('/scim/v2', createScimRouter(scim));
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
