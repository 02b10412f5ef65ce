import { expect } from 'vitest';
import { ERROR, LIST } from './fixtures.js';
import type { ScimReply } from './scim-client.js';

/** Every SCIM body is application/scim+json (RFC 7644 §3.1: media type). */
export function expectScimJson(reply: ScimReply): void {
  expect(reply.headers.get('content-type')).toMatch(/^application\/scim\+json\b/);
}

/**
 * An RFC 7644 §3.12 error: the status line equals `status` (a JSON string), `detail` always present,
 * `scimType` when given.
 */
export function expectError(reply: ScimReply, status: number, scimType?: string, detail?: string | RegExp): void {
  expect(reply.status, reply.text).toBe(status);
  expectScimJson(reply);
  expect(reply.body.schemas).toEqual([ERROR]);
  expect(reply.body.status).toBe(String(status));
  expect(typeof reply.body.detail).toBe('string');
  if (scimType === undefined) expect(reply.body.scimType).toBeUndefined();
  else expect(reply.body.scimType).toBe(scimType);
  if (typeof detail === 'string') expect(reply.body.detail).toBe(detail);
  else if (detail !== undefined) expect(reply.body.detail).toMatch(detail);
}

/** A ListResponse with the paging numbers RFC 7644 §3.4.2.4 requires. */
export function expectList(reply: ScimReply, totalResults: number, startIndex: number, itemsPerPage: number): void {
  expect(reply.status, reply.text).toBe(200);
  expectScimJson(reply);
  expect(reply.body.schemas).toEqual([LIST]);
  expect(reply.body.totalResults).toBe(totalResults);
  expect(reply.body.startIndex).toBe(startIndex);
  expect(reply.body.itemsPerPage).toBe(itemsPerPage);
  expect(reply.body.Resources).toHaveLength(itemsPerPage);
}

/** `ETag` equals `meta.version` whenever the body has one (RFC 7644 §3.14; docs/concepts/etags-and-concurrency.md). */
export function expectEtagMatchesBody(reply: ScimReply): void {
  const version = reply.body?.meta?.version;
  expect(typeof version).toBe('string');
  expect(version).toMatch(/^W\/".+"$/);
  expect(reply.headers.get('etag')).toBe(version);
}
