import type { IgnoredAttributeReport } from '../config/scim-server-config.js';
import type { Exchange } from '../request/exchange.js';
import { logScopeOfExchange } from '../request/exchange.js';
import { reportError } from './notify-change.js';
import { writeLog } from './write-log.js';

/**
 * The `onIgnored` of one write under `unknownAttributes: 'ignore'`: each attribute dropped is a `warn`
 * record and a call of `config.onIgnoredAttribute`, never a silent loss. Undefined under `reject`.
 */
export function ignoredReporter(exchange: Exchange, resourceType: string, operation: IgnoredAttributeReport['operation'], id: string): ((path: string) => void) | undefined {
  const { context } = exchange;
  if (context.config.unknownAttributes !== 'ignore') return undefined;
  const hook = context.config.onIgnoredAttribute;
  const seen = new Set<string>();
  return (path) => {
    if (seen.has(path)) return;
    seen.add(path);
    const { tenant, requestId } = exchange.storeContext;
    writeLog(context.logger, { level: 'warn', message: `${resourceType} ${operation}: attribute not kept (no served schema declares it): ${path}`, ...logScopeOfExchange(exchange) });
    if (hook === undefined) return;
    try {
      hook({ resourceType, path, operation, id, requestId, ...(tenant === undefined ? {} : { tenant }) });
    } catch (error) {
      reportError(context, 'the onIgnoredAttribute hook failed', error, logScopeOfExchange(exchange));
    }
  };
}
