import { bearerToken, createScimServer, createSchemaRegistry, groupResourceType, URN, userResourceType, type ScimLogger } from '@scimkit/core';
import { createScimRouter } from '@scimkit/express';
import { createSqlStore, mappedSchemas, type SqlConnection } from '@scimkit/sql';
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
  app.use('/scim/v2', createScimRouter(scim));
  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  return app;
}
