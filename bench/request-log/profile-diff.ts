/**
 * Compare two V8 CPU profiles of the request-log HTTP servers (`BENCH_PROFILE_DIR`, or
 * `node --cpu-prof`): each function's self time per request, log off against log on, largest
 * difference first. `node --import tsx bench/request-log/profile-diff.ts <off.cpuprofile> <on.cpuprofile> [rows]`;
 * the request count is read from the file name (`…-<requests>.cpuprofile`). Idle time is left out.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

interface Profile {
  readonly nodes: readonly { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** Self time per function, in µs per request, and the total of non-idle samples. */
function selfPerRequest(file: string): { fns: Map<string, number>; total: number } {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const requests = Number(/-(\d+)\.cpuprofile$/.exec(basename(file))?.[1] ?? 1);
  const names = new Map(profile.nodes.map((n) => [n.id, `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(packages|node_modules)\//, '')}`]));
  const fns = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const name = names.get(id) as string;
    if (name.startsWith('(idle)')) return;
    const us = (profile.timeDeltas[i] ?? 0) / requests;
    fns.set(name, (fns.get(name) ?? 0) + us);
    total += us;
  });
  return { fns, total };
}

const [offFile, onFile, rows = '30'] = process.argv.slice(2);
if (offFile === undefined || onFile === undefined) throw new Error('usage: profile-diff.ts <off.cpuprofile> <on.cpuprofile> [rows]');
const off = selfPerRequest(offFile);
const on = selfPerRequest(onFile);
console.log(`non-idle samples per request: off ${off.total.toFixed(2)} µs, on ${on.total.toFixed(2)} µs (+${(on.total - off.total).toFixed(2)})`);
const names = new Set([...off.fns.keys(), ...on.fns.keys()]);
const diff = [...names].map((name) => ({ name, off: off.fns.get(name) ?? 0, on: on.fns.get(name) ?? 0 })).sort((a, b) => b.on - b.off - (a.on - a.off));
for (const d of diff.slice(0, Number(rows))) console.log(`${(d.on - d.off).toFixed(3).padStart(8)}  ${d.off.toFixed(3).padStart(7)} → ${d.on.toFixed(3).padStart(7)} µs  ${d.name}`);
