/**
 * The limit of the postgres-limit bench: what a hand-written service would run for each request,
 * bare node:http and a pg Pool over the same scim_resources rows, one named (prepared) statement a
 * request: select by tenant/type/id; select by the same lower(normalize(userName, NFC)) expression;
 * one INSERT; one UPDATE … RETURNING that sets displayName (the PATCH the bench sends).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { announce, counter, pool } from './child.js';

const db = pool();
const T = 'public.scim_resources';

async function query(name: string, text: string, values: unknown[]): Promise<{ rows: { data: Record<string, unknown> }[] }> {
  counter.statements++;
  return db.query({ name, text, values });
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, value?: unknown): void {
  const text = value === undefined ? '' : JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/scim+json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://x');
  const byId = /^\/scim\/v2\/Users\/([^/]+)$/.exec(url.pathname);
  if (req.method === 'GET' && byId !== null) {
    const found = await query('limit_get', `SELECT data FROM ${T} WHERE tenant = '' AND resource_type = 'User' AND id = $1`, [decodeURIComponent(byId[1] ?? '')]);
    const data = found.rows[0]?.data;
    return data === undefined ? send(res, 404) : send(res, 200, data);
  }
  if (req.method === 'GET' && url.pathname === '/scim/v2/Users') {
    const eq = /^userName eq "(.*)"$/.exec(url.searchParams.get('filter') ?? '');
    if (eq === null) return send(res, 400);
    const found = await query('limit_eq', `SELECT data FROM ${T} WHERE tenant = '' AND resource_type = 'User' AND lower(normalize(data->>'userName', NFC)) = lower(normalize($1, NFC))`, [eq[1]]);
    return send(res, 200, { schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: found.rows.length, startIndex: 1, itemsPerPage: found.rows.length, Resources: found.rows.map((r) => r.data) });
  }
  if (req.method === 'POST' && url.pathname === '/scim/v2/Users') {
    const input = JSON.parse(await body(req)) as Record<string, unknown>;
    const id = randomUUID();
    const now = new Date().toISOString();
    const data = { ...input, id, meta: { resourceType: 'User', created: now, lastModified: now, version: 'W/"1"' } };
    await query('limit_insert', `INSERT INTO ${T} (tenant, resource_type, id, version, created, last_modified, data) VALUES ('', 'User', $1, 'W/"1"', $2, $2, $3::jsonb)`, [id, now, JSON.stringify(data)]);
    return send(res, 201, data);
  }
  if (req.method === 'PATCH' && byId !== null) {
    const patch = JSON.parse(await body(req)) as { Operations: { value: string }[] };
    const value = patch.Operations[0]?.value ?? '';
    const version = `W/"${randomUUID()}"`;
    const updated = await query(
      'limit_patch',
      `UPDATE ${T} SET version = $2, last_modified = now(), data = jsonb_set(jsonb_set(data, '{displayName}', to_jsonb($3::text)), '{meta,version}', to_jsonb($2::text))
       WHERE tenant = '' AND resource_type = 'User' AND id = $1 RETURNING data`,
      [decodeURIComponent(byId[1] ?? ''), version, value],
    );
    const data = updated.rows[0]?.data;
    return data === undefined ? send(res, 404) : send(res, 200, data);
  }
  send(res, 404);
}

announce(createServer((req, res) => void handle(req, res).catch(() => send(res, 500))));
