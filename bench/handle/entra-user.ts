import { ENTERPRISE, USER } from '../lib/users.js';

/** The body of a Microsoft Entra provisioning POST /Users, user number `i` (unique userName). */
export function entraUser(i: number): Record<string, unknown> {
  return {
    schemas: [USER, ENTERPRISE],
    externalId: `e${i}`,
    userName: `new${i}@contoso.com`,
    active: true,
    displayName: `New User ${i}`,
    title: 'Engineer',
    preferredLanguage: 'en-US',
    emails: [{ primary: true, type: 'work', value: `new${i}@contoso.com` }],
    name: { formatted: `New User ${i}`, familyName: 'User', givenName: 'New' },
    addresses: [{ type: 'work', formatted: '1 Main St', streetAddress: '1 Main St', locality: 'Redmond', region: 'WA', postalCode: '98052', country: 'US', primary: false }],
    phoneNumbers: [
      { type: 'work', value: '+1 425 555 0100' },
      { type: 'mobile', value: '+1 425 555 0101' },
    ],
    [ENTERPRISE]: { employeeNumber: `${i}`, department: 'Engineering', manager: { value: 'manager-1' } },
  };
}
