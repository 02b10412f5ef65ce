/** Most parameters a token request may carry: the grant needs at most seven. */
const MAX_PARAMETERS = 16;

/**
 * The parameters of an `application/x-www-form-urlencoded` body (RFC 6749 §4.4.2, Appendix B), or
 * a reason to refuse it: a parameter given twice (RFC 6749 §3.2 says they MUST NOT be), too many
 * parameters, bytes that are not UTF-8.
 */
export function parseForm(body: unknown): { ok: true; params: Map<string, string> } | { ok: false; reason: string } {
  let text: string;
  if (body === undefined || body === null) text = '';
  else if (typeof body === 'string') text = body;
  else if (body instanceof Uint8Array) {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(body);
    } catch {
      return { ok: false, reason: 'The request body is not UTF-8' };
    }
  } else if (typeof body === 'object' && !Array.isArray(body)) {
    // A framework's form parser ran first: accept flat string values only.
    const params = new Map<string, string>();
    for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
      if (typeof value !== 'string') return { ok: false, reason: `The parameter ${name.slice(0, 40)} is given more than once or is not a string` };
      params.set(name, value);
    }
    return params.size > MAX_PARAMETERS ? { ok: false, reason: 'Too many parameters' } : { ok: true, params };
  } else return { ok: false, reason: 'The request body is not a form' };
  const params = new Map<string, string>();
  let count = 0;
  for (const [name, value] of new URLSearchParams(text)) {
    if (++count > MAX_PARAMETERS) return { ok: false, reason: 'Too many parameters' };
    if (params.has(name)) return { ok: false, reason: `The parameter ${name.slice(0, 40)} is given more than once (RFC 6749 §3.2)` };
    params.set(name, value);
  }
  return { ok: true, params };
}
