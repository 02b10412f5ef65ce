// Starts the bench's scimkit server with a CPU profile and drives one case for SECONDS.
import { fork } from 'node:child_process';
import autocannon from 'autocannon';
const [which = 'post', dir = '/tmp/pgwrite-prof', script = 'bench/postgres-limit/scimkit-server.ts'] = process.argv.slice(2);
const child = fork(script, [], { execArgv: ['--import', 'tsx', '--cpu-prof', `--cpu-prof-dir=${dir}`], env: { ...process.env, DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/pgwrite_replay', POOL: '10', SERVER_NAME: 'prof' }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const port = await new Promise<number>((r) => child.once('message', (m) => r((m as { port: number }).port)));
let n = 0; const pid = process.pid;
const body = (k: number) => which === 'post'
  ? JSON.stringify({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: `d${k}-${pid}@example.com`, externalId: `e${k}`, name: { givenName: 'New', familyName: `User${k}` }, displayName: `New User ${k}`, active: true, emails: [{ value: `new${k}@example.com`, type: 'work', primary: true }] })
  : JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', path: 'displayName', value: `Renamed ${k}` }] });
const stats = () => new Promise<{ cpuMicros: number; statements: number }>((r) => { child.once('message', (m) => r(m as never)); child.send('stats'); });
for (const seconds of [2, Number(process.env.SECONDS ?? 8)]) {
  const before = await stats();
  const result = await autocannon({ url: `http://127.0.0.1:${port}`, connections: 16, duration: seconds, requests: [{ method: which === 'post' ? 'POST' : 'PATCH', headers: { 'content-type': 'application/scim+json' }, setupRequest: (req) => ({ ...req, path: which === 'post' ? '/scim/v2/Users' : `/scim/v2/Users/u${1 + Math.floor(Math.random() * 100000)}`, body: body(++n) }) }] });
  const after = await stats();
  console.log(`${which} ${seconds}s: ${result.requests.total} req, non2xx ${result.non2xx}, node CPU ${((after.cpuMicros - before.cpuMicros) / result.requests.total).toFixed(0)} µs/req, ${(after.statements / result.requests.total).toFixed(2)} stmts`);
}
child.send('exit');
