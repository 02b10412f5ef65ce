import type { ScimRequest, ScimServer } from '@scimkit/core';

/** The User-Agent of Microsoft Entra ID's provisioning service. */
export const ENTRA_USER_AGENT = 'Microsoft.Identity.Provisioning/1.0';
export const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

/** A request as Entra ID sends it, through `handle()`. */
export function entraRequest(method: string, path: string, token: string, body?: unknown, query?: Record<string, string>): ScimRequest {
  return {
    method,
    path,
    headers: { authorization: `Bearer ${token}`, 'user-agent': ENTRA_USER_AGENT, 'content-type': 'application/scim+json', host: 'scim.example.com' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...(query === undefined ? {} : { query }),
  };
}

/**
 * Entra ID's provisioning of one user: create (with a password), PATCH (Entra's path-less
 * `replace` with a string boolean), and a `replace` on a missing work phone that a server without
 * `createMissingValuePath` refuses (400 noTarget).
 */
export async function provisionAsEntra(scim: ScimServer, token: string, userName: string): Promise<{ id: string; statuses: number[] }> {
  const created = await scim.handle(
    entraRequest('POST', '/Users', token, {
      schemas: [USER],
      userName,
      password: 'Pa55word-never-logged',
      active: true,
      name: { givenName: 'Barbara', familyName: 'Jensen' },
      emails: [{ value: userName, type: 'work', primary: true }],
    }),
  );
  const id = (JSON.parse(created.body ?? '{}') as { id: string }).id;
  const patched = await scim.handle(entraRequest('PATCH', `/Users/${id}`, token, { schemas: [PATCH_OP], Operations: [{ op: 'Replace', value: { active: 'False', displayName: 'Barbara J.' } }] }));
  const refused = await scim.handle(entraRequest('PATCH', `/Users/${id}`, token, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'phoneNumbers[type eq "mobile"].value', value: '+1 555 0100' }] }));
  return { id, statuses: [created.status, patched.status, refused.status] };
}
