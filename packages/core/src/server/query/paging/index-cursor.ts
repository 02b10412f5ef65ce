import { err, ok, type Result } from '../../../errors/result.js';
import { scimError } from '../../../errors/scim-error.js';
import { issueCursor, readCursor } from './cursor-token.js';
import type { PaginationSettings } from './pagination-settings.js';

/** Where an index-encoded cursor walk stands, and how to issue the cursors around a page. */
export interface IndexCursor {
  /** 1-based index of the page the cursor names (1 for the first page). */
  readonly startIndex: number;
  /** `nextCursor`/`previousCursor` of the page that starts at `startIndex`, holds `length` resources of `total`. */
  around(length: number, total: number, count: number): Promise<{ nextCursor?: string; previousCursor?: string }>;
}

/**
 * An RFC 9865 cursor that carries an index (`''`: the first page): for lists paged in memory or by a
 * store without keyset cursors. Correct while the list does not change during the walk; an insert
 * or delete before the position shifts it (docs/concepts/paging.md).
 */
export async function readIndexCursor(settings: PaginationSettings, binding: string, cursor: string): Promise<Result<IndexCursor>> {
  const position = cursor === '' ? undefined : await readCursor(settings, binding, cursor);
  if (position !== undefined && !position.ok) return position;
  if (position !== undefined && position.value.kind !== 'index') {
    return err(scimError('invalidCursor', 'The cursor is not valid for this query; start again without a cursor (RFC 9865 §2.1)'));
  }
  const startIndex = position?.value.kind === 'index' ? position.value.startIndex : 1;
  const issue = (at: number): Promise<string> => issueCursor(settings, binding, { kind: 'index', startIndex: at });
  return ok({
    startIndex,
    around: async (length, total, count) => {
      const after = startIndex - 1 + length;
      return {
        ...(count > 0 && after < total ? { nextCursor: await issue(after + 1) } : {}),
        ...(startIndex > 1 && count > 0 ? { previousCursor: await issue(Math.max(1, startIndex - count)) } : {}),
      };
    },
  });
}
