/** One entry of an Express (4: `Layer`, 5: `router` `Layer`) routing stack, as far as it is read here. */
interface StackLayer {
  readonly handle?: unknown;
  /** Express 5 (`router` 2): the path given to `use()`. */
  readonly rawPath?: unknown;
  /** Express 4: the compiled path. */
  readonly regexp?: RegExp & { fast_slash?: boolean };
}

const cache = new WeakMap<object, WeakMap<object, readonly string[]>>();

/**
 * The mount paths, as the application spelled them, at which `handle` is mounted with plain
 * `use('/path', …)` calls (nested routers included): Express matches them case-insensitively, so
 * `req.baseUrl` is the client's spelling, not the application's. Empty when a mount involves a
 * parameter, a pattern or a sub-application, which cannot be read back; the adapter then keeps
 * `req.baseUrl`. Computed once per application.
 */
export function configuredMountPaths(app: unknown, handle: object): readonly string[] {
  if (typeof app !== 'object' && typeof app !== 'function') return [];
  if (app === null) return [];
  let perApp = cache.get(app);
  if (perApp === undefined) cache.set(app, (perApp = new WeakMap()));
  let found = perApp.get(handle);
  if (found === undefined) {
    const collected: string[] = [];
    const root = (app as { _router?: unknown })._router ?? (app as { router?: unknown }).router;
    collect(root, handle, '', collected, 0);
    found = collected;
    perApp.set(handle, found);
  }
  return found;
}

function collect(router: unknown, handle: object, prefix: string, out: string[], depth: number): void {
  const stack = (router as { stack?: unknown } | undefined)?.stack;
  if (!Array.isArray(stack) || depth > 16) return;
  for (const layer of stack as StackLayer[]) {
    const path = layerPath(layer);
    if (path === undefined) continue;
    if (layer.handle === handle) out.push(prefix + path);
    else if (typeof layer.handle === 'function' && Array.isArray((layer.handle as { stack?: unknown }).stack)) collect(layer.handle, handle, prefix + path, out, depth + 1);
  }
}

const PLAIN = /^\/?(?:[A-Za-z0-9._~!$&'+,;=@-]+\/?)*$/;
/** Express 4 (path-to-regexp 0.1) compiles `use('/scim/v2')` to `^\/scim\/v2\/?(?=\/|$)`. */
const EXPRESS4_PLAIN = /^\^((?:\\\/(?:[A-Za-z0-9_~-]|\\[.$+])+)+)\\\/\?\(\?=\\\/\|\$\)$/;

/** The plain path a `use()` layer was given, without a trailing slash (`''` for the root); undefined for a pattern. */
function layerPath(layer: StackLayer): string | undefined {
  if (typeof layer.rawPath === 'string') return PLAIN.test(layer.rawPath) ? layer.rawPath.replace(/\/+$/, '') : undefined;
  const regexp = layer.regexp;
  if (regexp === undefined || layer.rawPath !== undefined) return undefined;
  if (regexp.fast_slash === true) return '';
  const match = EXPRESS4_PLAIN.exec(regexp.source);
  return match?.[1] === undefined ? undefined : match[1].replace(/\\(.)/g, '$1');
}
