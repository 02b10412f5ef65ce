import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applyPatch, type PatchOptions } from '../../src/patch/index.js';
import type { ScimResource } from '../../src/schema/scim-resource.js';
import { body, groupModel, userModel } from './patch-fixtures.js';

/**
 * Extra check, when /work/shared is present: SCIMMY's PatchOp fixtures (`{source, ops, target}`),
 * mapped onto User, or Group when they touch `members`. Where SCIMMY departs from RFC 7644, the
 * RFC answer is asserted instead, with the reason.
 */
const FIXTURES = new URL('../../../../../shared/conformance/scimmy-test-fixtures/messages/patchop.json', import.meta.url);

interface Case {
  readonly source: Record<string, unknown>;
  readonly target: Record<string, unknown>;
  readonly ops: unknown[];
}

type Expectation =
  | { readonly kind: 'error'; readonly scimType: string; readonly why: string }
  | { readonly kind: 'target'; readonly target: Record<string, unknown>; readonly why: string }
  | { readonly kind: 'option'; readonly options: PatchOptions; readonly why: string };

const DIFFERENCES: Record<string, Expectation> = {
  'add/3': { kind: 'error', scimType: 'invalidPath', why: 'compValue must be a JSON string, number, true, false or null (RFC 7644 §3.4.2.2): `123abc` is unquoted' },
  'remove/7': { kind: 'error', scimType: 'invalidPath', why: 'unquoted compValue, as above' },
  'replace/1': {
    kind: 'target',
    target: { id: '1234', userName: 'asdf', name: { honorificPrefix: 'Mr', formatted: 'Test' } },
    why: 'RFC 7644 §3.5.2.3: sub-attributes not specified in the value are left unchanged',
  },
  'replace/3': { kind: 'option', options: { createMissingValuePath: true }, why: 'RFC 7644 §3.5.2.3 answers noTarget; SCIMMY creates the value, as createMissingValuePath does' },
};

describe('SCIMMY PatchOp fixtures (when /work/shared is present)', () => {
  const cases: [string, Case][] = [];
  if (existsSync(FIXTURES)) {
    const inbound = (JSON.parse(readFileSync(FIXTURES, 'utf8')) as { inbound: Record<string, Case[]> }).inbound;
    for (const [group, list] of Object.entries(inbound)) list.forEach((c, i) => cases.push([`${group}/${i}`, c]));
  }

  it('finds the fixtures it checks', () => {
    expect(cases.length === 0 || cases.length >= 18).toBe(true);
  });

  for (const [name, { source, target, ops }] of cases) {
    const difference = DIFFERENCES[name];
    it(`${name}${difference ? ` (RFC: ${difference.why})` : ''}`, () => {
      const isGroup = JSON.stringify([source, ops]).includes('members');
      const model = isGroup ? groupModel : userModel;
      const resource = { schemas: [model.core.id], ...source } as unknown as ScimResource;
      const result = applyPatch(model, resource, body(...ops), difference?.kind === 'option' ? difference.options : undefined);
      if (difference?.kind === 'error') {
        expect(!result.ok && result.error.scimType).toBe(difference.scimType);
        return;
      }
      if (!result.ok) throw new Error(JSON.stringify(result.error));
      const expected = difference?.kind === 'target' ? difference.target : target;
      expect(result.value.resource).toEqual({ schemas: [model.core.id], ...expected });
      if (difference?.kind === 'option') {
        expect(applyPatch(model, resource, body(...ops))).toMatchObject({ ok: false, error: { scimType: 'noTarget' } });
      }
    });
  }
});
