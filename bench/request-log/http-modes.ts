/**
 * Place the request log's cost over HTTP: the HTTP servers of the request-log part (`server.ts`) in
 * the modes named (default `off,queue,built,on`: no log, a recorder that only queues, records built
 * and kept nowhere, the log on), each in a process of its own, alternated over ROUNDS (4) rounds of
 * 3-s autocannon runs; prints each mode's server CPU µs per request and their median.
 * `node --import tsx bench/request-log/http-modes.ts <get|patch> [modes]`. Take the bench lock.
 */
import { load, startServer } from './http-servers.js';
const kind = process.argv[2] === 'get' ? false : true;
const modes = (process.argv[3] ?? 'off,queue,built,on').split(',') as ('off' | 'on' | 'queue' | 'built')[];
const servers = await Promise.all(modes.map((m) => startServer(m)));
for (const s of servers) await load(s, 1, kind);
const cpu: Record<string, number[]> = {};
for (let r = 0; r < Number(process.env.ROUNDS ?? 4); r++) {
  for (const s of r % 2 ? [...servers].reverse() : servers) { const { cpuUs } = await load(s, 3, kind); (cpu[s.mode] ??= []).push(cpuUs); await s.flush(); }
}
for (const [m, v] of Object.entries(cpu)) console.log(m, v.map((x) => x.toFixed(1)).join(' '), 'median', [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!.toFixed(1));
for (const s of servers) await s.close();
