import { URN } from '@scimkit/core';

export const USER = URN.user;
export const ENTERPRISE = URN.enterpriseUser;
export const ERROR = URN.error;
export const LIST = URN.listResponse;
export const SEARCH = URN.searchRequest;
export const PATCH_OP = URN.patchOp;

/** A typical user as Okta and Entra create them. */
export function userBody(userName: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    schemas: [USER],
    userName,
    name: { givenName: 'Barbara', familyName: 'Jensen' },
    emails: [{ value: userName.includes('@') ? userName : `${userName}@example.com`, type: 'work', primary: true }],
    active: true,
    ...extra,
  };
}

export function patchBody(...operations: Record<string, unknown>[]): Record<string, unknown> {
  return { schemas: [PATCH_OP], Operations: operations };
}
