/** A version the core writes: a per-resource counter in a weak entity tag, at most 15 digits (a safe integer after one more). */
const COUNTER = /^W\/"(\d{1,15})"$/;

/**
 * The version after `version` when it is a counter the core writes (`W/"n"` → `W/"n+1"`, RFC 7644
 * §3.14); undefined for any other tag (imported data), which the core replaces with a fresh,
 * distinct sequence on its own write path. For stores that advance versions themselves
 * (`ScimStore.assign`): the same rule a PostgreSQL statement can apply.
 */
export function nextCounterVersion(version: string): string | undefined {
  const counter = COUNTER.exec(version)?.[1];
  return counter === undefined ? undefined : `W/"${Number(counter) + 1}"`;
}
