import { describe, expect, it } from 'vitest';
import { DELETE, GET, PATCH, POST } from '../src/app/scim/v2/[[...path]]/route.js';
import { createSeedApp } from '../src/seed-app.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const SCIM_JSON = { 'Content-Type': 'application/scim+json' };
const userJson = (userName: string) => JSON.stringify({ schemas: [USER], userName });

describe('the fetch adapter on Hono (app.fetch, no server)', () => {
  it('creates, reads and filters users at /scim/v2, leaving other paths to Hono', async () => {
    const app = createSeedApp();
    const created = await app.fetch(new Request('http://localhost/scim/v2/Users', { method: 'POST', headers: SCIM_JSON, body: userJson('bjensen') }));
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toMatch(/^http:\/\/localhost\/scim\/v2\/Users\//);
    const list = await app.fetch(new Request('http://localhost/scim/v2/Users?filter=userName%20eq%20%22BJENSEN%22'));
    expect(((await list.json()) as { totalResults: number }).totalResults).toBe(1);
    expect((await app.fetch(new Request('http://localhost/scim/v2/ServiceProviderConfig'))).status).toBe(200);
    expect((await app.fetch(new Request('http://localhost/elsewhere'))).status).toBe(404);
  });

  it('answers malformed JSON with 400 invalidSyntax and requires the bearer token when configured', async () => {
    const open = createSeedApp();
    const malformed = await open.fetch(new Request('http://localhost/scim/v2/Users', { method: 'POST', headers: SCIM_JSON, body: '{"userName":' }));
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { scimType: string }).scimType).toBe('invalidSyntax');
    const locked = createSeedApp({ bearerToken: 'secret' });
    expect((await locked.fetch(new Request('http://localhost/scim/v2/Users'))).status).toBe(401);
    expect((await locked.fetch(new Request('http://localhost/scim/v2/Users', { headers: { Authorization: 'Bearer secret' } }))).status).toBe(200);
  });
});

describe('the fetch adapter as a Next.js route handler (app/scim/v2/[[...path]]/route.ts)', () => {
  it('serves each exported method: POST, GET, PATCH, DELETE', async () => {
    const origin = 'http://localhost:3000';
    const created = await POST(new Request(`${origin}/scim/v2/Users`, { method: 'POST', headers: SCIM_JSON, body: userJson('next-user') }));
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    expect(location.startsWith(`${origin}/scim/v2/Users/`)).toBe(true);
    const patched = await PATCH(
      new Request(location, {
        method: 'PATCH',
        headers: SCIM_JSON,
        body: JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', path: 'active', value: false }] }),
      }),
    );
    expect(patched.status).toBe(200);
    expect(((await (await GET(new Request(location))).json()) as { active: boolean }).active).toBe(false);
    expect((await DELETE(new Request(location, { method: 'DELETE' }))).status).toBe(204);
    expect((await GET(new Request(location))).status).toBe(404);
  });
});
