import type { TableMapping } from '@scimkit/sql';

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

/**
 * SCIM over the application's own tables (docs/stores/own-tables.md): users, teams, team_members.
 * The app's own `UPDATE … updated_at = now()` changes a resource's ETag; `userName` and the work
 * email are one column, as Entra ID maps them.
 */
export const mapping: Record<string, TableMapping> = {
  User: {
    table: 'users',
    id: { column: 'id' },
    version: { column: 'updated_at', kind: 'timestamp' },
    created: 'created_at',
    attributes: {
      userName: 'email',
      'emails[type eq "work"].value': 'email',
      'name.givenName': 'first_name',
      'name.familyName': 'last_name',
      displayName: 'display_name',
      active: { column: 'is_active', default: true },
      externalId: 'external_ref',
      title: 'job_title',
      [`${ENTERPRISE}:department`]: 'department',
    },
  },
  Group: {
    table: 'teams',
    id: { column: 'id' },
    version: { column: 'updated_at', kind: 'timestamp' },
    created: 'created_at',
    attributes: { displayName: 'name' },
    members: { table: 'team_members', group: 'team_id', member: 'user_id' },
  },
};
