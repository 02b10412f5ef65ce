import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ALL_OPERATIONS, DEFAULT_COMPATIBILITY, DEFAULT_LIMITS, DEFAULT_TENANT_CACHE_SIZE } from '@scimkit/core';
import { describe, expect, it } from 'vitest';

/**
 * docs/configuration.md is the reference of `ScimServerConfig`: every option the type declares has a
 * row, and no row names an option that does not exist; the documented defaults are the code's.
 * (It lives with docs-samples.test.ts: the `examples` test project is the one that reaches docs/.)
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const doc = readFileSync(`${root}docs/configuration.md`, 'utf8');
const source = readFileSync(`${root}packages/core/src/server/config/scim-server-config.ts`, 'utf8');
const tenancySource = readFileSync(`${root}packages/core/src/server/tenancy/tenancy-options.ts`, 'utf8');

/** The options an interface of scim-server-config.ts (or another source) declares. */
function declared(name: string, from = source): string[] {
  const body = new RegExp(`export interface ${name}\\b[^{]*\\{([\\s\\S]*?)\\n\\}`).exec(from)?.[1] ?? '';
  return [...body.matchAll(/^ {2}readonly (\w+)\??:/gm)].map((match) => match[1] ?? '');
}

/** First-column names and second/third cells of the table under `heading`. */
function table(heading: string): Map<string, string[]> {
  const section = doc.split(/^## /m).find((part) => part.startsWith(heading)) ?? '';
  const rows = [...section.matchAll(/^\| `(\w+)` \|(.*)\|$/gm)];
  return new Map(rows.map((row) => [row[1] ?? '', (row[2] ?? '').split(' | ').map((cell) => cell.trim())]));
}

const plain = (value: unknown): string => (typeof value === 'number' ? value.toLocaleString('en-US') : String(value));

describe('docs/configuration.md', () => {
  it.each([
    ['Top-level options', 'ScimServerConfig'],
    ['`resourceTypes`', 'ResourceTypeConfig'],
    ['`limits`', 'ScimServerLimits'],
    ['`compatibility`', 'CompatibilityOptions'],
    ['`bulk`', 'BulkOptions'],
    ['`pagination`', 'PaginationOptions'],
  ])('the "%s" table lists exactly the options of %s', (heading, type) => {
    expect(declared(type).length).toBeGreaterThan(1);
    expect([...table(heading).keys()].sort()).toEqual(declared(type).sort());
  });

  it('the "`tenancy`" table lists exactly the options of TenancyOptions, with the cache size default', () => {
    expect([...table('`tenancy`').keys()].sort()).toEqual(declared('TenancyOptions', tenancySource).sort());
    expect(table('`tenancy`').get('cacheSize')?.[0]).toBe(plain(DEFAULT_TENANT_CACHE_SIZE));
  });

  it('gives the default of every limit', () => {
    for (const [name, value] of Object.entries(DEFAULT_LIMITS)) expect(table('`limits`').get(name)?.[0], name).toMatch(new RegExp(`^${plain(value)}\\b`));
  });

  it('gives the default of every compatibility option', () => {
    for (const [name, value] of Object.entries(DEFAULT_COMPATIBILITY)) expect(table('`compatibility`').get(name)?.[0], name).toBe(String(value));
  });

  it('gives every operation as the default of operations', () => {
    expect(table('`resourceTypes`').get('operations')?.[0]).toBe(`all: \`[${ALL_OPERATIONS.map((op) => `'${op}'`).join(', ')}]\``);
  });
});
