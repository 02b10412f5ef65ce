import { fork } from 'node:child_process';
import autocannon from 'autocannon';
import { fromPgPool, migrate } from '@scimkit/postgres';
import { usersInsert, withFreshDatabase } from './lib/postgres-bench.js';
const which = process.env['CASE'] ?? 'get';
await withFreshDatabase(2, async (pool) => {
  await migrate(fromPgPool(pool));
  await pool.query(usersInsert('jsonb', '1', '20000'));
  await pool.query('ANALYZE');
  await pool.query(`INSERT INTO public.scim_unique_values (tenant, resource_type, attribute, key, id) SELECT tenant, resource_type, 'userName', 's:' || lower(normalize(data->>'userName', NFC)), id FROM public.scim_resources`);
  const url = (pool.options as { connectionString: string }).connectionString;
  const child = fork(new URL('./postgres-limit/scimkit-server.ts', import.meta.url).pathname, [], { execArgv: ['--import', 'tsx', '--cpu-prof', '--cpu-prof-dir=/tmp/pgspeed-prof'], env: { ...process.env, DATABASE_URL: url }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((r) => child.once('message', (m) => r((m as { port: number }).port)));
  let n = 0;
  const req = which === 'get' ? { method: 'GET', setupRequest: (r: any) => ({ ...r, path: `/scim/v2/Users/u${1 + Math.floor(Math.random() * 20000)}` }) }
    : which === 'post' ? { method: 'POST', headers: { 'content-type': 'application/scim+json' }, setupRequest: (r: any) => ({ ...r, path: '/scim/v2/Users', body: JSON.stringify({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: `p${++n}@x.com`, name: { givenName: 'a', familyName: 'b' }, emails: [{ value: `p${n}@x.com`, type: 'work', primary: true }], active: true }) }) }
    : { method: 'PATCH', headers: { 'content-type': 'application/scim+json' }, setupRequest: (r: any) => ({ ...r, path: `/scim/v2/Users/u${1 + Math.floor(Math.random() * 20000)}`, body: JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', path: 'displayName', value: `x${++n}` }] }) }) };
  const r = await autocannon({ url: `http://127.0.0.1:${port}`, connections: 16, duration: 6, requests: [req as any] });
  console.log(which, r.requests.average, r.non2xx);
  child.send('exit');
  await new Promise((res) => child.once('exit', res));
});
