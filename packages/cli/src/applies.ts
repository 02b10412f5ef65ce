import { SCIM_URN, type SchemaAttribute } from '@scimkit/client';
import type { CheckContext } from './check-context.js';

/** Why a check does not apply to this server, or undefined when it does. */
export type Condition = (ctx: CheckContext) => string | undefined;

export const needsPatch: Condition = (ctx) => (ctx.config.patch?.supported === true ? undefined : 'the server does not advertise PATCH (patch.supported)');
export const needsFilter: Condition = (ctx) => (ctx.config.filter?.supported === true ? undefined : 'the server does not advertise filtering (filter.supported)');
export const needsSort: Condition = (ctx) => (ctx.config.sort?.supported === true ? undefined : 'the server does not advertise sorting (sort.supported)');
export const needsEtag: Condition = (ctx) => (ctx.config.etag?.supported === true ? undefined : 'the server does not advertise ETags (etag.supported)');
export const needsBulk: Condition = (ctx) => (ctx.config.bulk?.supported === true ? undefined : 'the server does not advertise Bulk (bulk.supported)');
export const needsCursor: Condition = (ctx) => (ctx.config.pagination?.cursor === true ? undefined : 'the server does not advertise cursor paging (pagination.cursor, RFC 9865 §4)');
export const needsUsers: Condition = (ctx) => (ctx.endpointOf(SCIM_URN.user) === undefined ? 'the server lists no User resource type' : undefined);
export const needsGroups: Condition = (ctx) => (ctx.endpointOf(SCIM_URN.group) === undefined ? 'the server lists no Group resource type' : undefined);
export const needsToken: Condition = (ctx) => (ctx.authenticated ? undefined : 'no --token given: the server is not expected to require authentication');
export const needsEnterprise: Condition = (ctx) => {
  const user = ctx.resourceTypes.find((type) => type.schema === SCIM_URN.user);
  return user?.schemaExtensions?.some((extension) => extension.schema === SCIM_URN.enterpriseUser) ? undefined : 'the User resource type has no Enterprise User extension';
};

/**
 * The server's schema lists the attribute (`nickName`, `name.givenName`, or an extension's
 * `urn:…:User:manager`): RFC 7643 §7, the schemas describe the attributes the service provider
 * supports. A server whose /Schemas could not be read, or does not list that schema, is given the
 * benefit of the doubt (discovery.schemas says what is wrong with it).
 */
export function needsAttribute(path: string, coreSchema: string = SCIM_URN.user): Condition {
  const colon = path.lastIndexOf(':');
  const schemaId = colon === -1 ? coreSchema : path.slice(0, colon);
  const names = (colon === -1 ? path : path.slice(colon + 1)).toLowerCase().split('.');
  return (ctx) => {
    const schema = ctx.schemas.find((candidate) => candidate.id.toLowerCase() === schemaId.toLowerCase());
    if (schema === undefined) return undefined;
    let attributes: readonly SchemaAttribute[] | undefined = schema.attributes;
    for (const name of names) {
      const found: SchemaAttribute | undefined = attributes?.find((attribute) => attribute.name.toLowerCase() === name);
      if (found === undefined) return `the schema ${schemaId} (/Schemas) does not list ${path.slice(colon + 1)}`;
      attributes = found.subAttributes;
    }
    return undefined;
  };
}

/** Every condition must hold; the first reason that does not. */
export function all(...conditions: Condition[]): Condition {
  return (ctx) => {
    for (const condition of conditions) {
      const reason = condition(ctx);
      if (reason !== undefined) return reason;
    }
    return undefined;
  };
}
