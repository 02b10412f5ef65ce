import { applyPatch, type PatchOptions } from '../../src/patch/index.js';
import { createSchemaRegistry, groupResourceType, userResourceType, URN } from '../../src/schema/index.js';
import type { ResourceModel } from '../../src/schema/resource-model.js';
import type { ScimResource } from '../../src/schema/scim-resource.js';
import type { Result } from '../../src/errors/result.js';

const registry = createSchemaRegistry({ resourceTypes: [userResourceType, groupResourceType] });

function model(name: string): ResourceModel {
  const found = registry.resourceType(name);
  if (found === undefined) throw new Error(`no resource type ${name}`);
  return found;
}

export const userModel = model('User');
export const groupModel = model('Group');
export const ENTERPRISE = URN.enterpriseUser;
export const PATCH_OP = URN.patchOp;

/** A stored user, close to RFC 7643 §8.2 (full representation). */
export function sampleUser(): ScimResource {
  return {
    schemas: [URN.user, URN.enterpriseUser],
    id: '2819c223-7f76-453a-919d-413861904646',
    externalId: '701984',
    userName: 'bjensen@example.com',
    name: { formatted: 'Ms. Barbara J Jensen, III', familyName: 'Jensen', givenName: 'Barbara' },
    displayName: 'Babs Jensen',
    nickName: 'Babs',
    active: true,
    emails: [
      { value: 'bjensen@example.com', type: 'work', primary: true },
      { value: 'babs@jensen.org', type: 'home' },
    ],
    addresses: [
      { type: 'work', streetAddress: '100 Universal City Plaza', locality: 'Hollywood', region: 'CA', postalCode: '91608', country: 'USA', primary: true },
      { type: 'home', streetAddress: '456 Hollywood Blvd', locality: 'Hollywood', region: 'CA', postalCode: '91608', country: 'USA' },
    ],
    phoneNumbers: [
      { value: '555-555-5555', type: 'work' },
      { value: '555-555-4444', type: 'mobile' },
    ],
    groups: [{ value: 'e9e30dba-f08f-4109-8486-d5c6a331660a', display: 'Tour Guides' }],
    [URN.enterpriseUser]: { employeeNumber: '701984', department: 'Tour Operations', manager: { value: '26118915-6090-4610-87e4-49d8ca9f808d' } },
    meta: {
      resourceType: 'User',
      created: '2010-01-23T04:56:22Z',
      lastModified: '2011-05-13T04:42:34Z',
      version: 'W/"3694e05e9dff591"',
      location: 'https://example.com/v2/Users/2819c223-7f76-453a-919d-413861904646',
    },
  };
}

/** A user with only the required attributes. */
export function minimalUser(): ScimResource {
  return {
    schemas: [URN.user],
    id: 'u1',
    userName: 'alice',
    meta: { resourceType: 'User', created: '2024-01-01T00:00:00Z', lastModified: '2024-01-01T00:00:00Z', version: 'W/"1"' },
  };
}

/** A stored group, close to RFC 7643 §8.4. */
export function sampleGroup(): ScimResource {
  return {
    schemas: [URN.group],
    id: 'e9e30dba-f08f-4109-8486-d5c6a331660a',
    displayName: 'Tour Guides',
    members: [
      { value: '2819c223-7f76-453a-919d-413861904646', $ref: 'https://example.com/v2/Users/2819c223-7f76-453a-919d-413861904646', display: 'Babs Jensen' },
      { value: '902c246b-6245-4190-8e05-00816be7344a', $ref: 'https://example.com/v2/Users/902c246b-6245-4190-8e05-00816be7344a', display: 'Mandy Pepperidge' },
    ],
    meta: { resourceType: 'Group', created: '2010-01-23T04:56:22Z', lastModified: '2011-05-13T04:42:34Z', version: 'W/"3694e05e9dff592"' },
  };
}

export function body(...operations: unknown[]): { schemas: string[]; Operations: unknown[] } {
  return { schemas: [PATCH_OP], Operations: operations };
}

/** Applies operations and returns the patched resource; fails the test on an error. */
export function patched(model: ResourceModel, resource: ScimResource, operations: unknown[], options?: PatchOptions): ScimResource {
  const result = applyPatch(model, resource, body(...operations), options);
  if (!result.ok) throw new Error(`unexpected error: ${JSON.stringify(result.error)}`);
  return result.value.resource;
}

/** Applies operations expecting an error; returns it. */
export function failed(model: ResourceModel, resource: ScimResource, operations: unknown[], options?: PatchOptions): { status: number; scimType?: string; detail: string } {
  const result: Result<unknown> = applyPatch(model, resource, body(...operations), options);
  if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.value)}`);
  return result.error;
}
