/**
 * scimkit in the sql-limit bench: the own-tables example's server (its mapping, schemas and client
 * settings) on @scimkit/node and @scimkit/sql over a pg Pool, every statement it sends counted, named or not
 * (BEGIN and COMMIT included).
 */
import { createServer } from 'node:http';
import { createScimServer, createSchemaRegistry, groupResourceType, URN, userResourceType } from '@scimkit/core';
import { createNodeHandler } from '@scimkit/node';
import { createSqlStore, fromPgPool, mappedSchemas } from '@scimkit/sql';
import { mapping } from '../../examples/own-tables/src/mapping.js';
import { announce, counter, pool } from '../postgres-limit/child.js';

const raw = pool();
raw.on('connect', (client) => {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (...args: unknown[]) => {
    // A text, or a named statement's { name, text, values }; not a cursor.
    if (typeof args[0] === 'string' || typeof (args[0] as { text?: unknown }).text === 'string') counter.statements++;
    return query(...args);
  };
});
const resourceTypes = [{ ...userResourceType, schemaExtensions: [{ schema: URN.enterpriseUser, required: false }] }, groupResourceType];
const store = createSqlStore({ ...fromPgPool(raw), mapping, unmapped: 'ignore', existingRows: 'adopt' });
const scim = createScimServer({
  resourceTypes,
  schemas: mappedSchemas(createSchemaRegistry({ resourceTypes }), mapping),
  store,
  compatibility: 'entra',
  unknownAttributes: 'ignore',
  patchResponse: 'noContent',
  logger: { log: () => undefined },
});
announce(createServer(createNodeHandler(scim, { basePath: '/scim/v2' })));
