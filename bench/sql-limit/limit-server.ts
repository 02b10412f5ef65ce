/**
 * The limit of the sql-limit bench: what a hand-written service would run over the own-tables
 * example's tables, bare node:http and the dialect's driver (DIALECT: a pg Pool, better-sqlite3, a
 * mysql2 pool), one prepared statement a request: the user with its teams (one correlated
 * subquery) by id or by the case-folded email (PostgreSQL's `lower(normalize(email, NFC))` index,
 * SQLite's `scimkit_fold(email)` index, MySQL's `_ci` unique index on `email`); one INSERT
 * (uniqueness left to that unique index; MySQL, which has no RETURNING, answers what it wrote); one
 * UPDATE of `display_name` (the PATCH the bench sends, answered 204 as the example answers it);
 * pages of 100 by index, then count(*) when full (PostgreSQL).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { announce, readBody, sendJson } from '../postgres-limit/child.js';
import { DIALECT, limitDb } from './dialect-db.js';

const db = limitDb();
const USER = ['urn:ietf:params:scim:schemas:core:2.0:User'];
const LIST = ['urn:ietf:params:scim:api:messages:2.0:ListResponse'];
const FIELDS = 'id, email, first_name, last_name, display_name, is_active, external_ref, job_title, department, created_at, updated_at';
const teamsOf = (alias: string) =>
  DIALECT === 'postgres'
    ? `(SELECT json_agg(json_build_array(t.id, t.name)) FROM team_members m JOIN teams t ON t.id = m.team_id WHERE m.user_id = ${alias}.id) AS teams`
    : DIALECT === 'sqlite'
      ? `(SELECT json_group_array(json_array(t.id, t.name)) FROM team_members m JOIN teams t ON t.id = m.team_id WHERE m.user_id = ${alias}.id) AS teams`
      : `(SELECT JSON_ARRAYAGG(JSON_ARRAY(t.id, t.name)) FROM team_members m JOIN teams t ON t.id = m.team_id WHERE m.user_id = ${alias}.id) AS teams`;
const COLUMNS = `${FIELDS.split(', ').map((f) => `u.${f}`).join(', ')}, ${teamsOf('u')}`;
/** `$1`… on PostgreSQL, `?` elsewhere. */
const p = (n: number) => (DIALECT === 'postgres' ? `$${n}` : '?');
const NOW = DIALECT === 'postgres' ? 'now()' : DIALECT === 'sqlite' ? `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')` : 'CURRENT_TIMESTAMP(3)';
const FOLDED = DIALECT === 'postgres' ? 'lower(normalize(u.email, NFC))' : DIALECT === 'sqlite' ? 'scimkit_fold(u.email)' : 'u.email';
const INSERT = `INSERT INTO users ${DIALECT === 'postgres' ? 'AS u ' : ''}(id, email, first_name, last_name, display_name, is_active, external_ref, job_title, created_at, updated_at) VALUES (${[1, 2, 3, 4, 5, 6, 7, 8].map(p).join(', ')}, ${NOW}, ${NOW})`;
// SQLite's RETURNING names the table, not an alias; MySQL has none.
const RETURNING = DIALECT === 'postgres' ? ` RETURNING ${COLUMNS}` : DIALECT === 'sqlite' ? ` RETURNING ${FIELDS}, ${teamsOf('users')}` : '';

const query = (name: string, text: string, values: unknown[]) => db.query(name, text, values);

const body = readBody;
const send = sendJson;

function user(u: Record<string, any>): Record<string, unknown> {
  const raw = u['teams'];
  const teams = (typeof raw === 'string' ? JSON.parse(raw) : (raw ?? [])) as [string, string][];
  const modified = new Date(u['updated_at']);
  return {
    schemas: USER,
    id: u['id'],
    userName: u['email'],
    name: { givenName: u['first_name'], familyName: u['last_name'] },
    displayName: u['display_name'],
    active: u['is_active'] === true || u['is_active'] === 1,
    emails: [{ value: u['email'], type: 'work' }],
    externalId: u['external_ref'],
    title: u['job_title'],
    ...(teams.length === 0 ? {} : { groups: teams.map(([value, display]) => ({ value, display, type: 'direct', $ref: `../Groups/${value}` })) }),
    meta: { resourceType: 'User', created: new Date(u['created_at']).toISOString(), lastModified: modified.toISOString(), version: `W/"${modified.getTime()}"`, location: `/scim/v2/Users/${u['id']}` },
  };
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://x');
  const byId = /^\/scim\/v2\/Users\/([^/]+)$/.exec(url.pathname);
  if (req.method === 'GET' && byId !== null) {
    const found = await query('limit_get', `SELECT ${COLUMNS} FROM users u WHERE u.id = ${p(1)}`, [decodeURIComponent(byId[1] ?? '')]);
    return found.rows[0] === undefined ? send(res, 404) : send(res, 200, user(found.rows[0]));
  }
  if (req.method === 'GET' && url.pathname === '/scim/v2/Users') {
    const eq = /^userName eq "(.*)"$/.exec(url.searchParams.get('filter') ?? '');
    if (eq === null) return page(url, res);
    const found = await query('limit_eq', `SELECT ${COLUMNS} FROM users u WHERE ${FOLDED} = ${p(1)}`, [(eq[1] ?? '').normalize('NFC').toLowerCase()]);
    return send(res, 200, { schemas: LIST, totalResults: found.rows.length, startIndex: 1, itemsPerPage: found.rows.length, Resources: found.rows.map(user) });
  }
  if (req.method === 'POST' && url.pathname === '/scim/v2/Users') {
    const input = JSON.parse(await body(req)) as Record<string, any>;
    const active = input['active'] ?? true;
    const values = [randomUUID(), input['userName'], input['name']?.givenName ?? null, input['name']?.familyName ?? null, input['displayName'] ?? null, DIALECT === 'postgres' ? active : active ? 1 : 0, input['externalId'] ?? null, input['title'] ?? null];
    try {
      const at = new Date();
      const inserted = await query('limit_insert', `${INSERT}${RETURNING}`, values);
      const [id, email, first_name, last_name, display_name, is_active, external_ref, job_title] = values;
      const written = DIALECT === 'mysql' ? { id, email, first_name, last_name, display_name, is_active, external_ref, job_title, created_at: at, updated_at: at } : inserted.rows[0];
      return send(res, 201, user(written as Record<string, any>));
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'ER_DUP_ENTRY') return send(res, 409, { schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '409', scimType: 'uniqueness' });
      throw error;
    }
  }
  if (req.method === 'PATCH' && byId !== null) {
    const patch = JSON.parse(await body(req)) as { Operations: { value: string }[] };
    const updated = await query('limit_patch', `UPDATE users SET display_name = ${p(1)}, updated_at = ${NOW} WHERE id = ${p(2)}`, [patch.Operations[0]?.value ?? '', decodeURIComponent(byId[1] ?? '')]);
    return updated.rowCount === 0 ? send(res, 404) : send(res, 204);
  }
  send(res, 404);
}

/**
 * A page as written by hand: the page by index (the id, or a top-N sort by the folded email), then
 * its exact total with count(*) when the page is full. No filter, or `name.familyName sw "…"`
 * sorted by userName (the bench's pages).
 */
async function page(url: URL, res: ServerResponse): Promise<void> {
  const filter = url.searchParams.get('filter') ?? '';
  const count = Number(url.searchParams.get('count') ?? 100);
  const offset = Number(url.searchParams.get('startIndex') ?? 1) - 1;
  const sw = /^name\.familyName sw "(.*)"$/.exec(filter);
  if (filter !== '' && sw === null) return send(res, 400);
  const where = sw === null ? 'TRUE' : `starts_with(lower(normalize(u.last_name, NFC)), $3)`;
  const order = sw === null ? 'u.id' : `lower(normalize(u.email, NFC)), u.id`;
  const params = sw === null ? [count, offset] : [count, offset, (sw[1] ?? '').normalize('NFC').toLowerCase()];
  // The teams of the page's rows only (a subquery in the page's own select list would run for every row OFFSET skips).
  const rows = (await query(`limit_page_${sw === null ? 'all' : 'sw'}`, `SELECT ${COLUMNS} FROM (SELECT * FROM users u WHERE ${where} ORDER BY ${order} LIMIT $1 OFFSET $2) AS u ORDER BY ${order}`, params)).rows;
  let total = offset + rows.length;
  if (rows.length === count || (rows.length === 0 && offset > 0)) {
    const counted = await query(`limit_count_${sw === null ? 'all' : 'sw'}`, `SELECT count(*) AS n FROM users u WHERE ${where.replace('$3', '$1')}`, sw === null ? [] : [params[2]]);
    total = Number(counted.rows[0]?.['n']);
  }
  send(res, 200, { schemas: LIST, totalResults: total, startIndex: offset + 1, itemsPerPage: rows.length, Resources: rows.map(user) });
}

announce(createServer((req, res) => void handle(req, res).catch(() => send(res, 500))));
