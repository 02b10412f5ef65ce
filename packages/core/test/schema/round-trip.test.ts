import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ResourceModel, ScimResource } from '../../src/schema/index.js';
import { builtinResourceTypes, createSchemaRegistry, projectResource, URN, validateResource } from '../../src/schema/index.js';
import { enterpriseUser, fullUser, group, minimalUser } from './fixtures/rfc7643-examples.js';

const registry = createSchemaRegistry({ resourceTypes: builtinResourceTypes });
const user = registry.resourceType('User')!;
const groups = registry.resourceType('Group')!;
const ENT = URN.enterpriseUser;

/** What a client may send: the example without the service provider's readOnly values. */
function withoutServerValues(resource: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(resource);
  delete copy['id'];
  delete copy['meta'];
  delete copy['groups'];
  for (const member of (copy['members'] as Record<string, unknown>[] | undefined) ?? []) delete member['display'];
  const manager = (copy[ENT] as Record<string, Record<string, unknown>> | undefined)?.['manager'];
  if (manager !== undefined) delete manager['displayName'];
  // RFC 7643 §2.5: an empty array is an unassigned value.
  for (const [key, value] of Object.entries(copy)) if (Array.isArray(value) && value.length === 0) delete copy[key];
  return copy;
}

/** What a response may show: everything but `returned: never` values (the password). */
function withoutPassword(resource: Record<string, unknown>): Record<string, unknown> {
  const { password: _, ...rest } = resource;
  void _;
  return rest;
}

const examples: [string, ResourceModel, Record<string, unknown>][] = [
  ['§8.1 minimal user', user, minimalUser],
  ['§8.2 full user', user, fullUser],
  ['§8.3 enterprise user', user, enterpriseUser],
  ['§8.4 group', groups, group],
];

describe('RFC 7643 §8 example resources round-trip', () => {
  it.each(examples)('%s validates as a creation request and projects back unchanged', (_, model, example) => {
    const body = withoutServerValues(example);
    const created = validateResource(model, body, { operation: 'create' });
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    expect(created.value).toEqual(body);
    const stored = { ...created.value, id: example['id'], meta: example['meta'] };
    expect(projectResource(model, stored)).toEqual(withoutPassword({ ...body, id: example['id'], meta: example['meta'] }));
  });

  it.each(examples)('%s validates unchanged as a replacement of itself', (_, model, example) => {
    const replaced = validateResource(model, structuredClone(example), { operation: 'replace', existing: example as ScimResource });
    expect(replaced).toEqual({ ok: true, value: withoutServerValues(example) });
  });

  it.each(examples)('%s is its own PATCH result: every value kept, readOnly ones included', (_, model, example) => {
    const patched = validateResource(model, structuredClone(example), { operation: 'patch', existing: example as ScimResource });
    expect(patched).toEqual({ ok: true, value: example });
    expect(projectResource(model, example)).toEqual(withoutPassword(example));
  });
});

const SAMPLES = '/work/shared/conformance/scim2-models-rfc-samples';
const requests = [
  'rfc7644-3.3-user-post_request.json',
  'rfc7644-3.14-user-post_request.json',
  'rfc7644-3.5.1-user-put_request.json',
  'rfc7643-8.1-user-minimal.json',
  'rfc7643-8.2-user-full.json',
  'rfc7643-8.3-enterprise_user.json',
  'rfc7643-8.4-group.json',
  'rfc7644-3.3-user-post_response.json',
  'rfc7644-3.5.1-user-put_response.json',
  'rfc7644-3.4.1-user-known-resource.json',
].filter((file) => existsSync(`${SAMPLES}/${file}`));

describe.runIf(requests.length > 0)('shared RFC samples validate', () => {
  it.each(requests)('%s', (file) => {
    const body = JSON.parse(readFileSync(`${SAMPLES}/${file}`, 'utf8')) as Record<string, unknown>;
    const model = (body['schemas'] as string[]).includes(URN.group) ? groups : user;
    const result = validateResource(model, body, { operation: 'create' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    // Nothing the client may set is lost.
    expect(result.value).toEqual(withoutServerValues(body));
  });
});
