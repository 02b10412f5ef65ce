import { describe, expect, it } from 'vitest';
import { createSeedApp } from '../src/seed-app.js';

const SCIM_JSON = { 'content-type': 'application/scim+json' };

describe('the Fastify example (app.inject, no socket)', () => {
  it('serves the seed service at /scim/v2 and leaves other paths to Fastify', async () => {
    const app = await createSeedApp();
    const created = await app.inject({ method: 'POST', url: '/scim/v2/Users', headers: SCIM_JSON, payload: JSON.stringify({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'bjensen' }) });
    expect(created.statusCode).toBe(201);
    expect(created.headers['location']).toMatch(/^http:\/\/localhost(:80)?\/scim\/v2\/Users\//);
    const malformed = await app.inject({ method: 'POST', url: '/scim/v2/Users', headers: SCIM_JSON, payload: '{"userName":' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ status: '400', scimType: 'invalidSyntax' });
    expect((await app.inject({ url: '/elsewhere' })).statusCode).toBe(404);
    await app.close();
  });

  it('requires the bearer token when SCIM_BEARER_TOKEN is set', async () => {
    const app = await createSeedApp({ bearerToken: 'secret' });
    expect((await app.inject({ url: '/scim/v2/Users' })).statusCode).toBe(401);
    expect((await app.inject({ url: '/scim/v2/Users', headers: { authorization: 'Bearer secret' } })).statusCode).toBe(200);
    await app.close();
  });
});
