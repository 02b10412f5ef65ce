import type { ScimResource } from '@scimkit/core';

/** A resource as the store keeps it: the row's JSON, and the elements that go to the members table. */
export interface StoredForm {
  readonly data: Record<string, unknown>;
  /** The member elements in order, when the resource type keeps `attribute` in the members table and has some. */
  readonly members?: readonly unknown[];
}

/**
 * Splits a resource into its row and its member rows. A non-empty array under the member attribute
 * moves to the members table (one row per element), leaving `[]` in its place in the document (as
 * every row since schema version 1 has it: the row says the resource has the attribute); anything
 * else stays in the document as it is.
 */
export function toStoredForm(resource: ScimResource, memberAttribute: string | undefined): StoredForm {
  if (memberAttribute === undefined) return { data: resource };
  const members = (resource as Record<string, unknown>)[memberAttribute];
  if (!Array.isArray(members) || members.length === 0) return { data: resource };
  return { data: { ...resource, [memberAttribute]: [] }, members };
}

/** Reassembles a resource from its row's JSON and its members (null when it has none in the table). */
export function fromStoredForm(data: Record<string, unknown>, members: unknown[] | null | undefined, memberAttribute: string | undefined): ScimResource {
  if (memberAttribute !== undefined && Array.isArray(members) && members.length > 0) data[memberAttribute] = members;
  return data as unknown as ScimResource;
}
