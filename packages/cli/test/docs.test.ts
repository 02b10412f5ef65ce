import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALL_CHECKS, TAGS } from '../src/index.js';

const page = readFileSync(new URL('../../../docs/check.md', import.meta.url), 'utf8');

describe('docs/check.md', () => {
  it('lists every check with its reference, and every tag', () => {
    for (const check of ALL_CHECKS) expect(page, check.id).toContain(`| \`${check.id}\` | ${check.title.replace(/\|/g, '\\|')} | ${check.reference}`);
    for (const tag of TAGS.filter((tag) => tag !== 'cleanup')) expect(page).toContain(`\`${tag}\``);
  });
});
