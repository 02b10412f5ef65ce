import type { ScimUser as ServedUser } from '@scimkit/core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createScimClient, SCIM_URN, type ScimGroup, type ScimUser } from '../src/index.js';

/*
 * The client's resource types are the core's (packages/core/src/schema), every attribute optional
 * on the wire. `npm run lint` (tsc) checks the @ts-expect-error lines: each must be a type error.
 */
describe('resource types derived from the core', () => {
  it('a User has the core schema attributes, typed, each optional; any other attribute by name', () => {
    expectTypeOf<ScimUser['userName']>().toEqualTypeOf<ServedUser['userName'] | undefined>();
    expectTypeOf<NonNullable<ScimUser['name']>>().toEqualTypeOf<NonNullable<ServedUser['name']>>();
    expectTypeOf<NonNullable<ScimUser['emails']>>().toEqualTypeOf<NonNullable<ServedUser['emails']>>();
    expectTypeOf<NonNullable<ScimUser[typeof SCIM_URN.enterpriseUser]>>().toEqualTypeOf<NonNullable<ServedUser[typeof SCIM_URN.enterpriseUser]>>();
    expectTypeOf<ScimUser['id']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<NonNullable<ScimUser['meta']>['version']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<NonNullable<ScimGroup['members']>[number]['value']>().toEqualTypeOf<string | undefined>();

    const user: ScimUser = { schemas: [SCIM_URN.user], userName: 'bjensen', 'urn:example:custom:2.0:User': { badge: 7 } };
    // @ts-expect-error userName is a string
    const wrongType: ScimUser = { schemas: [SCIM_URN.user], userName: 5 };
    // @ts-expect-error name.givenName is a string
    const wrongSub: ScimUser = { schemas: [SCIM_URN.user], name: { givenName: true } };
    // @ts-expect-error schemas is required
    const noSchemas: ScimUser = { userName: 'x' };
    expect([user, wrongType, wrongSub, noSchemas]).toHaveLength(4);
  });

  it("create takes the endpoint's resource without id and meta, typed", () => {
    const users = createScimClient({ baseUrl: 'http://127.0.0.1:1/scim/v2' }).users;
    type CreateArgument = Parameters<typeof users.create>[0];
    expectTypeOf<{ schemas: string[]; userName: string; active: boolean }>().toMatchTypeOf<CreateArgument>();
    expectTypeOf<{ schemas: string[]; userName: number }>().not.toMatchTypeOf<CreateArgument>();
    expectTypeOf<{ schemas: string[]; name: { givenName: boolean } }>().not.toMatchTypeOf<CreateArgument>();
  });
});
