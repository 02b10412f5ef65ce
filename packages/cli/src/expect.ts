import { SCIM_URN, type ScimExchange } from '@scimkit/client';
import { CheckFailure } from './check.js';
import { isObject } from './check-context.js';

/** The status must be one of `expected`; `rule` says why (the RFC section). */
export function expectStatus(exchange: ScimExchange, expected: number | readonly number[], rule: string, scimkitOption?: string): void {
  const allowed = typeof expected === 'number' ? [expected] : expected;
  const status = exchange.response.status;
  if (!allowed.includes(status)) {
    throw new CheckFailure(`${exchange.request.method} answered ${status}`, `${allowed.join(' or ')} (${rule})`, exchange, scimkitOption);
  }
}

/** A condition on the answer. */
export function expectThat(condition: boolean, message: string, expected: string, exchange?: ScimExchange, scimkitOption?: string): asserts condition {
  if (!condition) throw new CheckFailure(message, expected, exchange, scimkitOption);
}

/**
 * A SCIM error (RFC 7644 §3.12): the status, the Error schema, `status` as a string equal to the
 * HTTP status, and `scimType` when one is due.
 */
export function expectScimError(exchange: ScimExchange, status: number, scimType: string | undefined, rule: string, scimkitOption?: string): void {
  expectStatus(exchange, status, rule, scimkitOption);
  const body = exchange.response.body;
  const expected = `a SCIM error: schemas [${SCIM_URN.error}], status "${status}"${scimType === undefined ? '' : `, scimType "${scimType}"`} (${rule}; RFC 7644 §3.12)`;
  expectThat(isObject(body), 'The error has no JSON body', expected, exchange, scimkitOption);
  const schemas = body['schemas'];
  expectThat(Array.isArray(schemas) && schemas.includes(SCIM_URN.error), 'The error body does not carry the Error schema', expected, exchange, scimkitOption);
  expectThat(String(body['status']) === String(status), `The error body's status is ${JSON.stringify(body['status'])}`, expected, exchange, scimkitOption);
  if (scimType !== undefined) {
    expectThat(body['scimType'] === scimType, `scimType is ${JSON.stringify(body['scimType'])}`, expected, exchange, scimkitOption);
  }
}

/** The JSON object body (a CheckFailure when there is none). */
export function bodyOf(exchange: ScimExchange): Record<string, unknown> {
  const body = exchange.response.body;
  expectThat(isObject(body), 'The answer has no JSON object body', 'a JSON body (RFC 7644 §3.1)', exchange);
  return body;
}

/** The ids of a ListResponse's resources (RFC 7644 §3.4.2). */
export function listIds(exchange: ScimExchange): string[] {
  const body = bodyOf(exchange);
  expectThat(typeof body['totalResults'] === 'number', 'The ListResponse has no totalResults', 'a ListResponse with totalResults (RFC 7644 §3.4.2)', exchange);
  const resources = body['Resources'] ?? [];
  expectThat(Array.isArray(resources), 'Resources is not an array', 'a ListResponse whose Resources is an array (RFC 7644 §3.4.2)', exchange);
  return resources.map((resource) => (isObject(resource) ? String(resource['id']) : ''));
}

/** Same members, any order. */
export function sameSet(actual: readonly string[], expected: readonly string[]): boolean {
  return actual.length === expected.length && [...actual].sort().join('\u0000') === [...expected].sort().join('\u0000');
}

/** A value inside the resource by a dotted path (`name.givenName`); case-insensitive keys (RFC 7643 §2.1). */
export function pick(resource: unknown, path: string): unknown {
  let value: unknown = resource;
  for (const key of path.split('.')) {
    if (!isObject(value)) return undefined;
    const found = Object.keys(value).find((candidate) => candidate.toLowerCase() === key.toLowerCase());
    value = found === undefined ? undefined : value[found];
  }
  return value;
}

/** A URN-qualified attribute: `resource[urn][attr]`. */
export function pickExtension(resource: unknown, urn: string, attribute: string): unknown {
  if (!isObject(resource)) return undefined;
  const key = Object.keys(resource).find((candidate) => candidate.toLowerCase() === urn.toLowerCase());
  return key === undefined ? undefined : pick(resource[key], attribute);
}
