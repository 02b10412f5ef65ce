import fc from 'fast-check';
import type { AttrPath, CompareOperator, CompValue, Filter } from '../../src/filter/index.js';

/*
 * fast-check generators of filter ASTs the grammar can express: any attribute path (URN prefix,
 * sub-attribute, `$ref`), any operator, any JSON value, and/or/not, value paths (not nested).
 */

export const OPERATORS: readonly CompareOperator[] = ['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'lt', 'ge', 'le'];

/** ATTRNAME (RFC 7644 Figure 1) and `$ref`; `not` is reserved by our grammar (it would make `not (` ambiguous). */
export const attrName = fc
  .oneof(fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,10}$/), fc.constantFrom('$ref', '$REF', 'pr', 'eq', 'and', 'or', 'true', 'null'))
  .filter((name) => name.toLowerCase() !== 'not');

export const schemaUri = fc.oneof(
  fc.constantFrom(
    'urn:ietf:params:scim:schemas:core:2.0:User',
    'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
    'urn:ietf:params:scim:schemas:core:2.0:Group',
  ),
  fc.stringMatching(/^urn:[a-z]{1,5}(:[A-Za-z0-9.]{1,6}){0,4}$/),
);

export const attrPath: fc.Arbitrary<AttrPath> = fc.record(
  { uri: schemaUri, attr: attrName, subAttr: attrName },
  { requiredKeys: ['attr'] },
);

export const compValue: fc.Arbitrary<CompValue> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ maxLength: 12 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);

const leaf = (path: fc.Arbitrary<AttrPath>): fc.Arbitrary<Filter> =>
  fc.oneof(
    fc.record({ kind: fc.constant('compare' as const), path, op: fc.constantFrom(...OPERATORS), value: compValue }),
    fc.record({ kind: fc.constant('present' as const), path }),
  );

function logical(sub: fc.Arbitrary<Filter>): fc.Arbitrary<Filter> {
  return fc.oneof(
    fc.record({ kind: fc.constantFrom('and' as const, 'or' as const), left: sub, right: sub }),
    fc.record({ kind: fc.constant('not' as const), filter: sub }),
  );
}

/** A filter with no value path: what may stand inside `[…]`. */
export const valFilter: fc.Arbitrary<Filter> = fc.letrec<{ f: Filter }>((tie) => ({
  f: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf(attrPath), logical(tie('f'))),
})).f;

export const filter: fc.Arbitrary<Filter> = fc.letrec<{ f: Filter }>((tie) => ({
  f: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf(attrPath),
    fc.record({ kind: fc.constant('valuePath' as const), path: attrPath, filter: valFilter }),
    logical(tie('f')),
  ),
})).f;

/** Characters that matter to the lexer, for mutating valid filters into near-misses. */
const interesting = fc.constantFrom(...'()[]"\\.: ,\'-$_eEnN0189aAzZ\u0000\t\n\u00e9\ud800');

/** A valid filter's text with a few characters inserted, deleted or replaced. */
export function mutated(text: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .tuple(text, fc.array(fc.tuple(fc.nat(), fc.constantFrom('insert', 'delete', 'replace'), interesting), { minLength: 1, maxLength: 4 }))
    .map(([base, edits]) => {
      let out = base;
      for (const [at, kind, char] of edits) {
        const i = out.length === 0 ? 0 : at % (out.length + 1);
        if (kind === 'insert') out = out.slice(0, i) + char + out.slice(i);
        else if (kind === 'delete') out = out.slice(0, i) + out.slice(i + 1);
        else out = out.slice(0, i) + char + out.slice(i + 1);
      }
      return out;
    });
}
