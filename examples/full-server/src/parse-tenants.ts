/** One tenant token of `SCIM_TENANTS`. */
export interface TenantToken {
  readonly tenant: string;
  readonly token: string;
}

/** RFC 6750 §2.1 b64token: what a bearer token may hold. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
const TENANT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/**
 * Parse `SCIM_TENANTS=acme:<token>,globex:<token>`: comma-separated `tenant:token` pairs. A tenant
 * may appear more than once (its old and new token during a rotation); a token may not. Returns
 * the pairs, or an error message naming the first bad entry.
 */
export function parseTenants(text: string): { ok: true; tenants: TenantToken[] } | { ok: false; error: string } {
  const tenants: TenantToken[] = [];
  const tokens = new Set<string>();
  for (const entry of text.split(',').map((part) => part.trim())) {
    const colon = entry.indexOf(':');
    const tenant = entry.slice(0, colon);
    const token = entry.slice(colon + 1);
    if (colon < 0 || !TENANT.test(tenant)) return { ok: false, error: `"${entry}" is not tenant:token (tenant: letters, digits, . _ -; up to 63 characters)` };
    if (!B64TOKEN.test(token)) return { ok: false, error: `the token of "${tenant}" is not a bearer token (letters, digits, -._~+/ and trailing =)` };
    if (tokens.has(token)) return { ok: false, error: `a token is given twice (last for "${tenant}")` };
    tokens.add(token);
    tenants.push({ tenant, token });
  }
  return { ok: true, tenants };
}
