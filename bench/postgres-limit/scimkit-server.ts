/**
 * scimkit in the postgres-limit bench: the full server (Users and Groups, so `User.groups` is
 * computed on every read) on @scimkit/node and @scimkit/postgres over a pg Pool, its statements
 * counted (BEGIN and COMMIT included).
 */
import { createServer } from 'node:http';
import { createScimServer, groupResourceType, userResourceType } from '@scimkit/core';
import { createNodeHandler } from '@scimkit/node';
import { createPostgresStore, fromPgPool, type SqlClient, type SqlQueryable } from '@scimkit/postgres';
import { announce, counter, pool } from './child.js';

const inner = fromPgPool(pool());
const counted = (q: SqlQueryable): SqlQueryable => ({
  query: (text, params, name) => {
    counter.statements++;
    return q.query(text, params, name);
  },
});
const client: SqlClient = {
  ...counted(inner),
  transaction: (work) => {
    counter.statements += 2;
    return inner.transaction((tx) => work(counted(tx)));
  },
  ...(inner.write === undefined
    ? {}
    : {
        write: (text: string, params?: readonly unknown[], name?: string) => {
          counter.statements++;
          return (inner.write as NonNullable<SqlClient['write']>)(text, params, name);
        },
      }),
};
const scim = createScimServer({ resourceTypes: [userResourceType, groupResourceType], store: createPostgresStore({ client }), logger: { log: () => undefined } });
announce(createServer(createNodeHandler(scim, { basePath: '/scim/v2' })));
