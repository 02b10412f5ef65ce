import {
  builtinResourceTypes,
  createSchemaRegistry,
  type ResourceModel,
  type SchemaRegistry,
} from '../../src/schema/index.js';
import type { ScimResource } from '../../src/schema/scim-resource.js';
import { parseFilter } from '../../src/filter/index.js';
import type { Filter } from '../../src/filter/index.js';

export const USER_URN = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_URN = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const ENTERPRISE_URN = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const DEVICE_URN = 'urn:example:params:scim:schemas:1.0:Device';

/** The built-in User and Group, plus a Device type whose attributes cover every SCIM type. */
export const registry: SchemaRegistry = createSchemaRegistry({
  schemas: [
    {
      id: DEVICE_URN,
      name: 'Device',
      attributes: [
        { name: 'serial', type: 'string', caseExact: true },
        { name: 'label', type: 'string' },
        { name: 'age', type: 'integer' },
        { name: 'score', type: 'decimal' },
        { name: 'enabled', type: 'boolean' },
        { name: 'seen', type: 'dateTime' },
        { name: 'blob', type: 'binary' },
        { name: 'home', type: 'reference', referenceTypes: ['external'] },
        { name: 'tags', type: 'string', multiValued: true },
        { name: 'ports', type: 'integer', multiValued: true },
        { name: 'secret', type: 'string', returned: 'never' },
        {
          name: 'location',
          type: 'complex',
          subAttributes: [
            { name: 'lat', type: 'decimal' },
            { name: 'site', type: 'string' },
          ],
        },
        {
          name: 'parts',
          type: 'complex',
          multiValued: true,
          subAttributes: [
            { name: 'kind', type: 'string' },
            { name: 'count', type: 'integer' },
          ],
        },
      ],
    },
  ],
  resourceTypes: [...builtinResourceTypes, { name: 'Device', endpoint: '/Devices', schema: DEVICE_URN }],
});

function model(name: string): ResourceModel {
  const found = registry.resourceType(name);
  if (found === undefined) throw new Error(`no resource type ${name}`);
  return found;
}

export const userModel = model('User');
export const groupModel = model('Group');
export const deviceModel = model('Device');

let counter = 0;

function meta(resourceType: string, created = '2011-05-13T04:42:34Z'): ScimResource['meta'] {
  return { resourceType, created, lastModified: created, version: 'W/"1"' };
}

export function user(attributes: Record<string, unknown> = {}): ScimResource {
  counter++;
  return { schemas: [USER_URN], id: `u${counter}`, meta: meta('User'), ...attributes };
}

export function group(attributes: Record<string, unknown> = {}): ScimResource {
  counter++;
  return { schemas: [GROUP_URN], id: `g${counter}`, meta: meta('Group'), ...attributes };
}

export function device(attributes: Record<string, unknown> = {}): ScimResource {
  counter++;
  return { schemas: [DEVICE_URN], id: `d${counter}`, meta: meta('Device'), ...attributes };
}

export function filterOf(text: string): Filter {
  const parsed = parseFilter(text);
  if (!parsed.ok) throw new Error(`${text}: ${parsed.error.detail}`);
  return parsed.value;
}
