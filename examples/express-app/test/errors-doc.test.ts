import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SCIM_TYPE_STATUS } from '@scimkit/core';
import { expect, it } from 'vitest';

/** docs/errors.md has one row for every scimType, with the status the code gives it, and no other. */
it('docs/errors.md lists every scimType with its status', () => {
  const doc = readFileSync(fileURLToPath(new URL('../../../docs/errors.md', import.meta.url)), 'utf8');
  const rows = Object.fromEntries([...doc.matchAll(/^\| `(\w+)` \| (\d{3}) \|/gm)].map((row) => [row[1], Number(row[2])]));
  expect(rows).toEqual(SCIM_TYPE_STATUS);
});
