/** SHA-256 of a string through Web Crypto, so the core runs wherever `globalThis.crypto` does. */
export async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}

/**
 * The index of `candidate` among `known` (all 32-byte digests), or -1. Every entry is compared in
 * full whatever matches, so the time taken tells nothing about the token or which one matched;
 * comparing digests rather than tokens hides the tokens' lengths too.
 */
export function findDigest(known: readonly Uint8Array[], candidate: Uint8Array): number {
  let found = -1;
  for (let index = 0; index < known.length; index++) {
    const digest = known[index] as Uint8Array;
    let difference = digest.length ^ candidate.length;
    for (let byte = 0; byte < digest.length; byte++) difference |= (digest[byte] as number) ^ (candidate[byte] ?? 0);
    found = difference === 0 && found === -1 ? index : found;
  }
  return found;
}
