import { describe, expect, it } from 'vitest';
import { issueCursor, readCursor } from '../../../src/server/query/paging/cursor-token.js';
import { resolvePagination } from '../../../src/server/query/paging/pagination-settings.js';

const settings = resolvePagination({ cursorTimeout: 10 });
if (settings === undefined) throw new Error('pagination did not resolve');
const binding = (tenant: string) => JSON.stringify(['User', 'userName sw "a"', '', 'ascending', tenant]);

describe('cursor tokens', () => {
  it('round-trip an index or a store cursor, in unreserved characters only (RFC 9865 §2)', async () => {
    for (const position of [{ kind: 'index', startIndex: 41 }, { kind: 'store', cursor: 'k:é/+=' }] as const) {
      const token = await issueCursor(settings, binding('t1'), position);
      expect(token).toMatch(/^[A-Za-z0-9._~-]+$/);
      expect(await readCursor(settings, binding('t1'), token)).toEqual({ ok: true, value: position });
    }
  });

  it('are bound to the query and tenant, and expire', async () => {
    const now = Date.UTC(2026, 0, 1);
    const token = await issueCursor(settings, binding('t1'), { kind: 'index', startIndex: 3 }, now);
    expect(await readCursor(settings, binding('t2'), token, now)).toMatchObject({ ok: false, error: { scimType: 'invalidCursor' } });
    expect(await readCursor(settings, binding('t1'), token, now + 10_000)).toMatchObject({ ok: true });
    expect(await readCursor(settings, binding('t1'), token, now + 11_000)).toMatchObject({ ok: false, error: { status: 400, scimType: 'expiredCursor' } });
  });

  it('reject any change to the payload or the MAC', async () => {
    const token = await issueCursor(settings, binding('t1'), { kind: 'index', startIndex: 3 });
    for (let i = 0; i < token.length; i++) {
      if (token[i] === '.') continue;
      const changed = `${token.slice(0, i)}${token[i] === 'A' ? 'B' : 'A'}${token.slice(i + 1)}`;
      expect((await readCursor(settings, binding('t1'), changed)).ok, changed).toBe(false);
    }
  });
});
