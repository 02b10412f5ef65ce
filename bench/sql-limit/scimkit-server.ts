/**
 * scimkit in the sql-limit bench: the own-tables example's server (its mapping, schemas and client
 * settings) on @scimkit/node and @scimkit/sql over the bench's dialect (DIALECT: a pg Pool, a
 * better-sqlite3 database or a mysql2 pool), every statement it runs counted, named or not (BEGIN
 * and COMMIT included).
 */
import { createServer } from 'node:http';
import { createScimServer, createSchemaRegistry, groupResourceType, URN, userResourceType } from '@scimkit/core';
import { createNodeHandler } from '@scimkit/node';
import { createSqlStore, mappedSchemas, type TableMapping } from '@scimkit/sql';
import { mapping } from '../../examples/own-tables/src/mapping.js';
import { announce } from '../postgres-limit/child.js';
import { scimkitConnection } from './dialect-db.js';

const resourceTypes = [{ ...userResourceType, schemaExtensions: [{ schema: URN.enterpriseUser, required: false }] }, groupResourceType];
// KEY=1 (MySQL/MariaDB): userName with the key column the bench adds (docs/stores/own-tables.md).
const User = mapping['User'] as TableMapping;
const mapped = process.env['KEY'] === '1' ? { ...mapping, User: { ...User, attributes: { ...User.attributes, userName: { column: 'email', key: 'email_key' } } } } : mapping;
const store = createSqlStore({ ...scimkitConnection(), mapping: mapped, unmapped: 'ignore', existingRows: 'adopt' });
const scim = createScimServer({
  resourceTypes,
  schemas: mappedSchemas(createSchemaRegistry({ resourceTypes }), mapped),
  store,
  compatibility: 'entra',
  unknownAttributes: 'ignore',
  patchResponse: 'noContent',
  logger: { log: () => undefined },
});
announce(createServer(createNodeHandler(scim, { basePath: '/scim/v2' })));
