/**
 * The index of `candidate` among the `known` tokens, or -1, in a time that does not depend on the
 * candidate: every known token is walked over its whole length whatever the candidate holds (the
 * candidate is read at `position % its length`, never past its end, with no branch on what it
 * holds), and lengths are compared as values, not by an early exit. The time taken follows the
 * configured tokens only, so it tells a client nothing of their characters, their lengths, or which
 * one matched (docs/concepts/authentication.md).
 *
 * Synchronous on purpose: hashing both sides with Web Crypto's `subtle.digest` first, as this did
 * before, cost about 29 µs of CPU per request on Node 20, more than the rest of a GET
 * (docs/performance.md, "HTTP").
 */
export function findToken(known: readonly string[], candidate: string): number {
  const span = Math.max(1, candidate.length);
  let found = -1;
  for (let index = 0; index < known.length; index++) {
    const token = known[index] as string;
    let difference = token.length ^ candidate.length;
    for (let at = 0; at < token.length; at++) difference |= token.charCodeAt(at) ^ (candidate.charCodeAt(at % span) | 0);
    found = difference === 0 && found === -1 ? index : found;
  }
  return found;
}
