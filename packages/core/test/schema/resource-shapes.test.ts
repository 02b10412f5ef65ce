import { describe, expect, it } from 'vitest';
import type { ScimGroup, ScimUser } from '../../src/schema/index.js';
import { builtinResourceTypes, createSchemaRegistry, projectResource, URN } from '../../src/schema/index.js';

const registry = createSchemaRegistry({ resourceTypes: builtinResourceTypes });
const meta = { resourceType: 'User', created: '2020-01-01T00:00:00Z', lastModified: '2020-01-01T00:00:00Z', version: 'W/"1"' };

describe('TypeScript resource shapes', () => {
  it('types a User with the Enterprise User extension as the engine serves it', () => {
    const user: ScimUser = {
      schemas: [URN.user, URN.enterpriseUser],
      id: 'u1',
      userName: 'bjensen',
      emails: [{ value: 'b@example.com', type: 'work', primary: true }],
      [URN.enterpriseUser]: { manager: { value: 'm1' } },
      meta,
    };
    expect(projectResource(registry.resourceType('User')!, user)).toEqual(user);
  });

  it('types a Group', () => {
    const group: ScimGroup = { schemas: [URN.group], id: 'g1', displayName: 'Tour Guides', members: [{ value: 'u1', type: 'User' }], meta: { ...meta, resourceType: 'Group' } };
    expect(projectResource(registry.resourceType('Group')!, group)).toEqual(group);
  });
});
