import { SCIM_URN, type ScimExchange } from '@scimkit/client';
import type { Check } from '../check.js';
import { isObject, type CheckContext } from '../check-context.js';
import { bodyOf, expectStatus, expectThat } from '../expect.js';

const SPC_URN = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
const RT_URN = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';

/** GET a discovery list (RFC 7644 §4): 200, a ListResponse, and its first entry that `matches`. */
async function listedEntry(ctx: CheckContext, path: string, what: string, matches: (entry: Record<string, unknown>) => boolean): Promise<{ entry: Record<string, unknown> | undefined; exchange: ScimExchange }> {
  const exchange = await ctx.send('GET', path);
  expectStatus(exchange, 200, 'RFC 7644 §4');
  const resources = bodyOf(exchange)['Resources'];
  expectThat(Array.isArray(resources), 'No Resources array', `a ListResponse of ${what} (RFC 7644 §4)`, exchange);
  return { entry: resources.filter(isObject).find(matches), exchange };
}

export const discoveryChecks: readonly Check[] = [
  {
    id: 'discovery.service-provider-config',
    tag: 'discovery',
    title: 'GET /ServiceProviderConfig describes the features',
    reference: 'RFC 7643 §5',
    writes: false,
    async run(ctx) {
      const exchange = await ctx.send('GET', '/ServiceProviderConfig');
      expectStatus(exchange, 200, 'RFC 7644 §4');
      const body = bodyOf(exchange);
      const schemas = body['schemas'];
      expectThat(Array.isArray(schemas) && schemas.includes(SPC_URN), 'schemas does not name the ServiceProviderConfig schema', `schemas [${SPC_URN}] (RFC 7643 §5)`, exchange);
      for (const feature of ['patch', 'bulk', 'filter', 'changePassword', 'sort', 'etag']) {
        const value = body[feature];
        expectThat(isObject(value) && typeof value['supported'] === 'boolean', `${feature}.supported is missing`, `${feature}: { supported: true|false } (RFC 7643 §5, REQUIRED)`, exchange);
      }
      expectThat(Array.isArray(body['authenticationSchemes']), 'authenticationSchemes is missing', 'authenticationSchemes, an array (RFC 7643 §5, REQUIRED)', exchange);
    },
  },
  {
    id: 'discovery.schemas',
    tag: 'discovery',
    title: 'GET /Schemas lists the User schema with its attributes',
    reference: 'RFC 7643 §7, RFC 7644 §4',
    writes: false,
    async run(ctx) {
      const { entry: user, exchange } = await listedEntry(ctx, '/Schemas', 'schemas', (schema) => schema['id'] === SCIM_URN.user);
      expectThat(user !== undefined, 'The User schema is not listed', `a schema with id ${SCIM_URN.user}`, exchange);
      const attributes = user['attributes'];
      expectThat(
        Array.isArray(attributes) && attributes.some((attribute) => isObject(attribute) && attribute['name'] === 'userName'),
        'The User schema does not describe userName',
        'attributes with userName (RFC 7643 §7, §8.7.1)',
        exchange,
      );
    },
  },
  {
    id: 'discovery.schema-by-id',
    tag: 'discovery',
    title: 'GET /Schemas/{User schema URN} returns that schema',
    reference: 'RFC 7644 §4',
    writes: false,
    async run(ctx) {
      const exchange = await ctx.send('GET', `/Schemas/${SCIM_URN.user}`);
      expectStatus(exchange, 200, 'RFC 7644 §4: "/Schemas/{id}"');
      expectThat(bodyOf(exchange)['id'] === SCIM_URN.user, 'Another document came back', `the schema whose id is ${SCIM_URN.user}`, exchange);
    },
  },
  {
    id: 'discovery.resource-types',
    tag: 'discovery',
    title: 'GET /ResourceTypes lists User at its endpoint',
    reference: 'RFC 7643 §6, RFC 7644 §4',
    writes: false,
    async run(ctx) {
      const { entry: user, exchange } = await listedEntry(ctx, '/ResourceTypes', 'resource types', (type) => type['schema'] === SCIM_URN.user);
      expectThat(user !== undefined && typeof user['endpoint'] === 'string' && typeof user['name'] === 'string', 'No User resource type with name and endpoint', `a resource type with schema ${SCIM_URN.user}, a name and an endpoint (RFC 7643 §6)`, exchange);
      const schemas = user['schemas'];
      expectThat(Array.isArray(schemas) && schemas.includes(RT_URN), 'The resource type does not carry the ResourceType schema', `schemas [${RT_URN}] (RFC 7643 §6)`, exchange);
    },
  },
  {
    id: 'discovery.media-type',
    tag: 'discovery',
    title: 'Answers are application/scim+json',
    reference: 'RFC 7644 §3.1, §8.1',
    writes: false,
    async run(ctx) {
      const exchange = await ctx.send('GET', '/ServiceProviderConfig');
      const type = exchange.response.headers.get('content-type') ?? '';
      expectThat(/^application\/scim\+json\b/i.test(type), `Content-Type is ${JSON.stringify(type)}`, 'Content-Type: application/scim+json (RFC 7644 §8.1)', exchange);
    },
  },
];
