import Router13 from '@koa/router-13';
import Router14 from '@koa/router-14';
import Router15 from '@koa/router-15';
import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore, createScimServer, userResourceType } from '@scimkit/core';
import { createScimMiddleware } from '../src/index.js';
import { listen, type Listening } from '../../../tests/adapter-support/listen.js';

const SCIM_JSON = { 'Content-Type': 'application/scim+json' };
const userJson = JSON.stringify({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'bjensen' });

/**
 * The route that sends every method on /scim/v2 and below to the middleware, per @koa/router major:
 * 13 uses path-to-regexp 6 (`(.*)`, `:path*`); 14 and 15 use path-to-regexp 8, where a wildcard is
 * named (`*path`) and `(.*)` is a syntax error. These are the lines docs/adapters/koa.md shows.
 */
const versions = [
  { name: '@koa/router 13', Router: Router13, routes: [['/scim/v2', '/scim/v2/(.*)'], ['/scim/v2', '/scim/v2/:path*']], legacyThrows: false },
  { name: '@koa/router 14', Router: Router14, routes: [['/scim/v2', '/scim/v2/*path'], ['/scim/v2{/*path}']], legacyThrows: true },
  { name: '@koa/router 15', Router: Router15, routes: [['/scim/v2', '/scim/v2/*path'], ['/scim/v2{/*path}']], legacyThrows: true },
] as const;

describe.each(versions)('createScimMiddleware behind $name', ({ Router, routes, legacyThrows }) => {
  let server: Listening | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it.each(routes.map((paths) => [paths.join(' + '), paths] as const))('serves SCIM at %s with the prefix taken from the route, beside the app routes', async (_label, paths) => {
    const scim = createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore() });
    const router = new Router({ prefix: '/api' });
    router.get('/health', (ctx) => {
      ctx.body = { status: 'ok' };
    });
    router.all([...paths], createScimMiddleware(scim));
    const app = new Koa();
    app.use(router.routes()).use(router.allowedMethods());
    server = await listen(app.callback());

    const created = await fetch(`${server.origin}/api/scim/v2/Users`, { method: 'POST', headers: SCIM_JSON, body: userJson });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^${server.origin}/api/scim/v2/Users/[^/]+$`));
    expect((await fetch(location)).status).toBe(200);
    const root = await fetch(`${server.origin}/api/scim/v2`);
    expect(root.status).toBe(404); // the mount point itself names no resource: a SCIM 404, not the router's
    expect(root.headers.get('content-type')).toContain('application/scim+json');
    expect((await fetch(`${server.origin}/api/scim/v2/ServiceProviderConfig`)).status).toBe(200);
    expect(await (await fetch(`${server.origin}/api/health`)).json()).toEqual({ status: 'ok' });
  });

  it(legacyThrows ? 'refuses the @koa/router 13 syntax (.*) at start-up' : 'accepts the (.*) syntax', () => {
    const register = () => new Router().all(['/scim/v2', '/scim/v2/(.*)'], createScimMiddleware({ handle: () => Promise.reject(new Error('unused')) }));
    if (legacyThrows) expect(register).toThrow(/Unexpected \(/);
    else expect(register).not.toThrow();
  });
});
