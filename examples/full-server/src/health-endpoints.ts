import type { IncomingMessage, ServerResponse } from 'node:http';

/** What `/readyz` asks: whether the store can serve now (`@scimkit/postgres`'s `ready()`, or always ready in memory). */
export type ReadinessCheck = () => Promise<{ readonly ready: boolean; readonly detail?: string }>;

/**
 * Kubernetes-style probes in front of the SCIM handler (docs/operations/database-failures.md):
 * `GET /livez` is 200 while the process serves HTTP at all (a database outage does not make it
 * fail: restarting would not help); `GET /readyz` is 200 when the database answers and the schema
 * is current, else 503, so that a load balancer sends traffic elsewhere. Both are plain text and
 * need no token; everything else goes to `next`.
 */
export function withHealthEndpoints(next: (req: IncomingMessage, res: ServerResponse) => void, ready: ReadinessCheck, timeoutMs = 2_000) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const path = (req.url ?? '').split('?')[0];
    if ((req.method !== 'GET' && req.method !== 'HEAD') || (path !== '/livez' && path !== '/readyz')) return next(req, res);
    const answer = (status: number, text: string): void => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : `${text}\n`);
    };
    if (path === '/livez') return answer(200, 'ok');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<{ ready: false; detail: string }>((resolve) => {
      timer = setTimeout(() => resolve({ ready: false, detail: `the readiness check took longer than ${timeoutMs} ms` }), timeoutMs);
    });
    Promise.race([Promise.resolve().then(ready), late]).then(
      (state) => answer(state.ready ? 200 : 503, state.ready ? 'ready' : `not ready: ${state.detail ?? 'unknown'}`),
      (error: unknown) => answer(503, `not ready: ${error instanceof Error ? error.message : String(error)}`),
    ).finally(() => clearTimeout(timer));
  };
}
