import { createHash } from 'node:crypto';

/** Identity providers recognized from the User-Agent of their provisioning clients. */
const PROVIDERS: readonly (readonly [RegExp, string])[] = [
  [/Microsoft|Azure|Entra|AAD/i, 'Microsoft Entra ID'],
  [/Okta/i, 'Okta'],
  [/OneLogin/i, 'OneLogin'],
  [/Google/i, 'Google Workspace'],
  [/JumpCloud/i, 'JumpCloud'],
  [/Ping ?(Identity|Federate|One)/i, 'Ping Identity'],
  [/Rippling/i, 'Rippling'],
  [/SailPoint/i, 'SailPoint'],
  [/Auth0/i, 'Auth0'],
  [/Keycloak/i, 'Keycloak'],
  [/scimkit/i, 'scimkit'],
  [/^curl\//i, 'curl'],
];

/** The identity provider a User-Agent names, if one is known. */
export function identityProviderOf(userAgent: string | undefined): string | undefined {
  if (userAgent === undefined || userAgent === '') return undefined;
  for (const [pattern, name] of PROVIDERS) if (pattern.test(userAgent)) return name;
  return undefined;
}

/**
 * Who called, for the record: the principal's name when `authenticate` gave one (a string, or an
 * object's `client`, `clientId`, `id`, `name` or `sub`), else a fingerprint of the credential
 * (`token 1a2b3c4d`, the first 8 hex digits of its SHA-256; never the credential), else `anonymous`.
 */
export function clientOf(principal: unknown, authorization: string | undefined): string {
  if (typeof principal === 'string' && principal !== '') return principal.slice(0, 200);
  if (principal !== null && typeof principal === 'object') {
    for (const key of ['client', 'clientId', 'id', 'name', 'sub']) {
      const value = (principal as Record<string, unknown>)[key];
      if ((typeof value === 'string' && value !== '') || typeof value === 'number') return String(value).slice(0, 200);
    }
  }
  if (authorization !== undefined && authorization !== '') {
    const [scheme = '', credential = ''] = authorization.trim().split(/\s+/, 2);
    if (/^basic$/i.test(scheme)) {
      const user = Buffer.from(credential, 'base64').toString('utf8').split(':')[0] ?? '';
      return `basic ${fingerprint(user)}`;
    }
    return `token ${fingerprint(credential || authorization)}`;
  }
  return 'anonymous';
}

function fingerprint(secret: string): string {
  return createHash('sha256').update(secret).digest('hex').slice(0, 8);
}
