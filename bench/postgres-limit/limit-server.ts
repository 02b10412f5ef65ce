/**
 * The limit of the postgres-limit bench: what a hand-written service would run for each request,
 * bare node:http and a pg Pool over the same scim_resources rows, one named (prepared) statement a
 * request: select by tenant/type/id; select by the same lower(normalize(userName, NFC)) expression;
 * one INSERT; one UPDATE … RETURNING that sets displayName (the PATCH the bench sends); a page of 100
 * by index, then count(*) when it is full.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { announce, counter, pool, readBody, sendJson } from './child.js';

const db = pool();
const T = 'public.scim_resources';

async function query(name: string, text: string, values: unknown[]): Promise<{ rows: { data: Record<string, unknown> }[] }> {
  counter.statements++;
  return db.query({ name, text, values });
}

const body = readBody;
const send = sendJson;

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://x');
  const byId = /^\/scim\/v2\/Users\/([^/]+)$/.exec(url.pathname);
  if (req.method === 'GET' && byId !== null) {
    const found = await query('limit_get', `SELECT data FROM ${T} WHERE tenant = '' AND resource_type = 'User' AND id = $1`, [decodeURIComponent(byId[1] ?? '')]);
    const data = found.rows[0]?.data;
    return data === undefined ? send(res, 404) : send(res, 200, data);
  }
  if (req.method === 'GET' && url.pathname === '/scim/v2/Users') {
    const filter = url.searchParams.get('filter') ?? '';
    const eq = /^userName eq "(.*)"$/.exec(filter);
    if (eq === null) return page(url, filter, res);
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

/**
 * A page of 100 as written by hand: the page by index (creation order, or a top-N sort), then its
 * exact total with count(*) when the page is full. No filter, or `name.familyName sw "…"` sorted by
 * userName (the bench's two pages).
 */
async function page(url: URL, filter: string, res: ServerResponse): Promise<void> {
  const count = Number(url.searchParams.get('count') ?? 100);
  const offset = Number(url.searchParams.get('startIndex') ?? 1) - 1;
  const sw = /^name\.familyName sw "(.*)"$/.exec(filter);
  if (filter !== '' && sw === null) return send(res, 400);
  const where = sw === null ? '' : ` AND lower(data->'name'->>'familyName') LIKE lower($3) || '%'`;
  const order = sw === null ? 'seq' : `lower(data->>'userName'), seq`;
  const params = sw === null ? [count, offset] : [count, offset, sw[1]];
  const rows = (await query(`limit_page_${sw === null ? 'all' : 'sw'}`, `SELECT data FROM ${T} WHERE tenant = '' AND resource_type = 'User'${where} ORDER BY ${order} LIMIT $1 OFFSET $2`, params)).rows;
  let total = offset + rows.length;
  if (rows.length === count || (rows.length === 0 && offset > 0)) {
    const counted = await query(`limit_count_${sw === null ? 'all' : 'sw'}`, `SELECT count(*) AS n FROM ${T} WHERE tenant = '' AND resource_type = 'User'${where.replace('$3', '$1')}`, sw === null ? [] : [sw[1]]);
    total = Number((counted.rows[0] as unknown as { n: string }).n);
  }
  send(res, 200, { schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: total, startIndex: offset + 1, itemsPerPage: rows.length, Resources: rows.map((r) => r.data) });
}

announce(createServer((req, res) => void handle(req, res).catch(() => send(res, 500))));
