import { comparisonKey } from '../values/index.js';
import type { ValueTest } from './any-at.js';

/**
 * `attr eq "value"` on a single-valued top-level string attribute, the lookup every provisioning
 * client sends (`userName eq …`, `externalId eq …`, `displayName eq …`), as one closure instead of
 * an accessor and a test: same semantics as `anyAt([key], [false], stringTest('eq', …))`.
 */
export function topLevelEquality(key: string, value: string, caseExact: boolean): ValueTest {
  if (caseExact) return (holder) => typeof holder === 'object' && holder !== null && (holder as Record<string, unknown>)[key] === value;
  const needle = comparisonKey(value, false);
  return (holder) => {
    if (typeof holder !== 'object' || holder === null) return false;
    const v = (holder as Record<string, unknown>)[key];
    return typeof v === 'string' && comparisonKey(v, false) === needle;
  };
}
