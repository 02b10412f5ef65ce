import type { ScimResource } from '../schema/scim-resource.js';
import type { FilterSemantics, SortSpec } from './scim-store.js';
import { readTopLevel } from './unique-value.js';

/**
 * A position in the memory store's keyset order, as a cursor holds it: the page after (or before)
 * the resource with insertion sequence `seq` and, for a sorted query, the sort-relevant part of
 * that resource (`key`), which the query's own comparator orders against the stored resources.
 */
export interface CursorPosition {
  readonly direction: 'after' | 'before';
  readonly seq: number;
  readonly key?: ScimResource;
}

/** Unpadded base64url of the position's JSON: only RFC 3986 unreserved characters (RFC 9865 §2). */
export function encodeCursor(position: CursorPosition): string {
  const json = JSON.stringify({ d: position.direction === 'after' ? 'a' : 'b', s: position.seq, ...(position.key === undefined ? {} : { k: position.key }) });
  let binary = '';
  for (const byte of new TextEncoder().encode(json)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The position a cursor of {@link encodeCursor} holds; undefined for `''` and for anything malformed. */
export function decodeCursor(cursor: string): CursorPosition | undefined {
  if (cursor === '' || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  try {
    const binary = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    const parsed: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { d, s, k } = parsed as { d?: unknown; s?: unknown; k?: unknown };
    if ((d !== 'a' && d !== 'b') || typeof s !== 'number' || !Number.isSafeInteger(s) || s < -1) return undefined;
    if (k !== undefined && (typeof k !== 'object' || k === null || Array.isArray(k))) return undefined;
    return { direction: d === 'a' ? 'after' : 'before', seq: s, ...(k === undefined ? {} : { key: k as ScimResource }) };
  } catch {
    return undefined;
  }
}

/**
 * The part of `resource` the sort reads: `meta.resourceType` and the one top-level attribute of
 * the sort path, a multi-valued one narrowed to the element the sort reads (its primary, else its
 * first: RFC 7644 §3.4.2.3). The comparator orders it exactly as it orders `resource`, and a cursor
 * holding it stays small whatever the resource holds (a group's 100,000 members).
 */
export function sortSkeleton(resource: ScimResource, sort: SortSpec, semantics: FilterSemantics): ScimResource | undefined {
  const location = topLevelPath(semantics.attribute(sort.path)?.fullPath, semantics);
  if (location === undefined) return undefined;
  const skeleton: Record<string, unknown> = { meta: { resourceType: resource.meta?.resourceType } };
  const value = narrow(readTopLevel(resource, location));
  if (value === undefined) return skeleton as unknown as ScimResource;
  if (location.toLowerCase().startsWith('urn:')) {
    const cut = location.lastIndexOf(':');
    skeleton[location.slice(0, cut)] = { [location.slice(cut + 1)]: value };
  } else {
    skeleton[location] = value;
  }
  return skeleton as unknown as ScimResource;
}

/**
 * The top-level attribute path (`members`, `urn:…:employeeNumber`) of a resolved full path
 * (`urn:…:core:2.0:Group:members.value`): the attribute name alone when it belongs to the core
 * schema (whose URN the common attribute `id` resolves to), else `urn:attr`.
 */
export function topLevelPath(fullPath: string | undefined, semantics: FilterSemantics): string | undefined {
  const idPath = semantics.attribute({ attr: 'id' })?.fullPath;
  if (fullPath === undefined || idPath === undefined || !idPath.endsWith(':id')) return undefined;
  const cut = fullPath.lastIndexOf(':');
  if (cut < 0) return undefined;
  const attribute = fullPath.slice(cut + 1).split('.')[0] ?? '';
  const urn = fullPath.slice(0, cut);
  return urn === idPath.slice(0, -':id'.length) ? attribute : `${urn}:${attribute}`;
}

function narrow(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  const primary = value.find((e) => typeof e === 'object' && e !== null && (e as { primary?: unknown }).primary === true);
  return value.length === 0 ? [] : [primary ?? value[0]];
}
