import { sql, type RawBuilder } from 'kysely';
import type { SortParts } from './translate-sort.js';

/**
 * RFC 9865 keyset cursors of the mapped store: the position of a row in the order `ORDER BY missing,
 * key, id` (or `id` alone without a sort), and a direction: `n` pages forward from after the row, `p`
 * backward from before it. Unpadded base64url JSON; one this store cannot read is the first page.
 */
export interface KeysetPosition {
  readonly direction: 'n' | 'p';
  readonly missing?: number;
  readonly key?: unknown;
  readonly id: string;
}

export function encodeCursor(position: KeysetPosition): string {
  const raw = position.key;
  // MySQL answers a binary sort key as bytes: kept as its UTF-8 text, which compares the same.
  const key = typeof raw === 'bigint' ? String(raw) : raw instanceof Date ? raw.toISOString() : raw instanceof Uint8Array ? Buffer.from(raw).toString('utf8') : raw;
  return Buffer.from(JSON.stringify([position.direction, position.missing ?? null, key ?? null, position.id]), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): KeysetPosition | undefined {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (!Array.isArray(value) || value.length !== 4 || (value[0] !== 'n' && value[0] !== 'p') || typeof value[3] !== 'string') return undefined;
    return { direction: value[0], ...(typeof value[1] === 'number' ? { missing: value[1] } : {}), ...(value[2] === null ? {} : { key: value[2] }), id: value[3] };
  } catch {
    return undefined;
  }
}

/** Rows strictly after (`n`) or before (`p`) `position` in the order of `parts` then `id`. */
export function beyond(position: KeysetPosition, id: RawBuilder<unknown>, parts: SortParts | undefined): RawBuilder<boolean> {
  const forward = position.direction === 'n';
  const idOp = sql.raw(forward ? '>' : '<');
  const afterId = sql<boolean>`(${id} ${idOp} ${position.id})`;
  if (parts === undefined) return afterId;
  // Ascending moves to larger keys going forward; descending to smaller.
  const larger = forward !== parts.descending;
  const op = sql.raw(larger ? '>' : '<');
  const m = position.missing ?? 0;
  if (m === 1) return sql<boolean>`((${parts.missing} ${op} 1) OR (${parts.missing} = 1 AND ${afterId}))`;
  return sql<boolean>`((${parts.missing} ${op} 0) OR (${parts.missing} = 0 AND (${parts.key} ${op} ${position.key as never} OR (${parts.key} = ${position.key as never} AND ${afterId}))))`;
}

/** ORDER BY for a page in `direction` (a backward page is read reversed, then turned around). */
export function keysetOrder(direction: 'n' | 'p', id: RawBuilder<unknown>, parts: SortParts | undefined): RawBuilder<unknown> {
  const reverse = direction === 'p';
  const idDirection = sql.raw(reverse ? 'DESC' : 'ASC');
  if (parts === undefined) return sql`ORDER BY ${id} ${idDirection}`;
  const keyDirection = sql.raw(parts.descending !== reverse ? 'DESC' : 'ASC');
  return sql`ORDER BY ${parts.missing} ${keyDirection}, ${parts.key} ${keyDirection}, ${id} ${idDirection}`;
}
