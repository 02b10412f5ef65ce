/**
 * One HTTP server of the HTTP part, started pinned to one core: `node server.mjs <kind> <port>`.
 * Kinds: bare (node:http, a fixed 1 KB user), scimkit-node, express-fixed, scimkit-express,
 * koa-fixed, scimkit-koa, scimmy-express. The scimkit and SCIMMY servers hold USERS users
 * (default 10,000) in memory. Prints "ready" when listening. Plain JavaScript on the built
 * packages: what an application runs.
 */
import { createServer } from 'node:http';

const [kind, port] = process.argv.slice(2);
const USERS = Number(process.env.USERS ?? 10_000);
const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';

function storedUser(i) {
  return {
    schemas: [USER_SCHEMA],
    id: `id-${i}`,
    externalId: `ext-${i}`,
    userName: `user${i}@example.com`,
    name: { givenName: 'Barbara', familyName: 'Jensen', formatted: 'Ms. Barbara J Jensen, III' },
    displayName: 'Babs Jensen',
    nickName: 'Babs',
    title: 'Tour Guide',
    active: true,
    emails: [
      { value: `user${i}@example.com`, type: 'work', primary: true },
      { value: `babs${i}@jensen.org`, type: 'home' },
    ],
    phoneNumbers: [{ value: '555-555-5555', type: 'work' }],
    meta: { resourceType: 'User', created: '2010-01-23T04:56:22Z', lastModified: '2011-05-13T04:42:34Z', version: `W/"${i}"`, location: `http://localhost/scim/v2/Users/id-${i}` },
  };
}

/** The fixed reply: one user, about 1 KB of JSON. */
const FIXED = JSON.stringify({ ...storedUser(1), addresses: [{ type: 'work', streetAddress: '100 Universal City Plaza', locality: 'Hollywood', region: 'CA', postalCode: '91608', country: 'USA' }] });

async function scimServer() {
  const { createScimServer, createMemoryStore, userResourceType, groupResourceType } = await import('@scimkit/core');
  const store = createMemoryStore();
  const scim = createScimServer({ resourceTypes: [userResourceType, groupResourceType], store });
  // Seed through the server, as clients would.
  for (let i = 0; i < USERS; i++) {
    const { id: _id, meta: _meta, ...body } = storedUser(i);
    const answer = await scim.handle({ method: 'POST', path: '/Users', query: {}, headers: { 'content-type': 'application/scim+json' }, body: JSON.stringify(body) });
    if (answer.status !== 201) throw new Error(`seed failed: ${answer.status} ${answer.body}`);
    if (i === 0) process.env.FIRST_ID = JSON.parse(answer.body).id;
  }
  return scim;
}

function readBody(req) {
  return new Promise((resolve) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString()));
  });
}

let server;
switch (kind) {
  case 'bare':
    server = createServer(async (req, res) => {
      await readBody(req);
      res.writeHead(200, { 'content-type': 'application/scim+json', 'content-length': Buffer.byteLength(FIXED) });
      res.end(FIXED);
    });
    break;
  case 'scimkit-node': {
    const { createNodeHandler } = await import('@scimkit/node');
    server = createServer(createNodeHandler(await scimServer(), { basePath: '/scim/v2' }));
    break;
  }
  case 'express-fixed':
  case 'scimkit-express':
  case 'scimmy-express': {
    const express = (await import('express')).default;
    const app = express();
    if (kind === 'express-fixed') {
      app.use(express.text({ type: () => true }));
      app.use((_req, res) => res.type('application/scim+json').send(FIXED));
    } else if (kind === 'scimkit-express') {
      const { createScimRouter } = await import('@scimkit/express');
      app.use('/scim/v2', createScimRouter(await scimServer()));
    } else {
      app.use('/scim/v2', await scimmyRouter());
    }
    server = createServer(app);
    break;
  }
  case 'koa-fixed':
  case 'scimkit-koa': {
    const Koa = (await import('koa')).default;
    const app = new Koa();
    if (kind === 'koa-fixed') {
      app.use(async (ctx) => {
        await readBody(ctx.req);
        ctx.type = 'application/scim+json';
        ctx.body = FIXED;
      });
    } else {
      const { createScimMiddleware } = await import('@scimkit/koa');
      app.use(createScimMiddleware(await scimServer(), { basePath: '/scim/v2' }));
    }
    server = createServer(app.callback());
    break;
  }
  default:
    throw new Error(`unknown server kind ${kind}`);
}

/** SCIMMY with its Express routers over an in-memory array, the way its README wires them. */
async function scimmyRouter() {
  const SCIMMY = (await import('scimmy')).default;
  const { default: SCIMMYRouters } = await import('scimmy-routers');
  const users = new Map();
  let next = 0;
  SCIMMY.Resources.declare(SCIMMY.Resources.User)
    .ingress(async (resource, instance) => {
      const id = resource.id ?? `id-${next++}`;
      const now = new Date().toISOString();
      const stored = { ...(resource.id ? users.get(id) : {}), ...JSON.parse(JSON.stringify(instance)), id, meta: { resourceType: 'User', created: now, lastModified: now } };
      users.set(id, stored);
      return stored;
    })
    .egress(async (resource) => {
      if (resource.id) return users.get(resource.id);
      const all = [...users.values()];
      return resource.filter ? resource.filter.match(all) : all;
    })
    .degress(async (resource) => void users.delete(resource.id));
  for (let i = 0; i < USERS; i++) {
    const { meta: _meta, ...user } = storedUser(i);
    users.set(user.id, { ...user, meta: { resourceType: 'User', created: '2010-01-23T04:56:22Z', lastModified: '2011-05-13T04:42:34Z' } });
  }
  next = USERS;
  process.env.FIRST_ID = 'id-0';
  return new SCIMMYRouters({ type: 'bearer', handler: () => 'bench', context: () => ({}) });
}

server.keepAliveTimeout = 60_000;
server.listen(Number(port), '127.0.0.1', () => console.log(`ready ${process.env.FIRST_ID ?? ''}`));
