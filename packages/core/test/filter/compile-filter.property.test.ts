import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileFilter, type AttrPath, type CompareOperator, type CompValue, type Filter } from '../../src/filter/index.js';
import type { ScimResource } from '../../src/schema/scim-resource.js';
import { ENTERPRISE_URN, user, userModel, USER_URN } from './filter-fixtures.js';

/*
 * The compiled predicate against a plain reference interpreter, written here as directly as the RFC
 * reads, over random filters and random users. The reference knows the User schema only through the
 * small table below (types and caseExact from RFC 7643 §4.1).
 */

type RefType = 'string' | 'boolean' | 'dateTime';
interface RefAttr {
  readonly keys: readonly string[];
  readonly type: RefType | 'complex';
  readonly caseExact: boolean;
}

const TABLE: Record<string, RefAttr> = {
  id: { keys: ['id'], type: 'string', caseExact: true },
  username: { keys: ['userName'], type: 'string', caseExact: false },
  displayname: { keys: ['displayName'], type: 'string', caseExact: false },
  active: { keys: ['active'], type: 'boolean', caseExact: false },
  'name.givenname': { keys: ['name', 'givenName'], type: 'string', caseExact: false },
  name: { keys: ['name'], type: 'complex', caseExact: false },
  'meta.created': { keys: ['meta', 'created'], type: 'dateTime', caseExact: false },
  emails: { keys: ['emails'], type: 'complex', caseExact: false },
  'emails.value': { keys: ['emails', 'value'], type: 'string', caseExact: false },
  'emails.type': { keys: ['emails', 'type'], type: 'string', caseExact: false },
  'emails.primary': { keys: ['emails', 'primary'], type: 'boolean', caseExact: false },
  employeenumber: { keys: [ENTERPRISE_URN, 'employeeNumber'], type: 'string', caseExact: false },
};
const EMAIL_SUBS: Record<string, RefAttr> = {
  value: { keys: ['value'], type: 'string', caseExact: false },
  type: { keys: ['type'], type: 'string', caseExact: false },
  primary: { keys: ['primary'], type: 'boolean', caseExact: false },
};

// ---- the reference interpreter ----

function valuesAt(holder: unknown, keys: readonly string[]): unknown[] {
  let level: unknown[] = [holder];
  for (const key of keys) {
    const next: unknown[] = [];
    for (const h of level) {
      if (typeof h !== 'object' || h === null || Array.isArray(h)) continue;
      const v = (h as Record<string, unknown>)[key];
      if (Array.isArray(v)) next.push(...v);
      else next.push(v);
    }
    level = next;
  }
  return level;
}

function nonEmpty(v: unknown): boolean {
  if (v === null || v === undefined) return false;
  if (typeof v === 'string') return v !== '';
  if (Array.isArray(v)) return v.some(nonEmpty);
  if (typeof v === 'object') return Object.values(v).some(nonEmpty);
  return true;
}

function compareRef(attr: RefAttr, op: CompareOperator, actual: unknown, expected: CompValue): boolean {
  if (attr.type === 'boolean') return typeof actual === 'boolean' && op === 'eq' && actual === expected;
  if (typeof actual !== 'string' || typeof expected !== 'string') return false;
  let a: string | number = actual;
  let b: string | number = expected;
  if (attr.type === 'dateTime') {
    a = new Date(actual).getTime();
    b = new Date(expected).getTime();
    if (Number.isNaN(a)) return false;
  } else if (!attr.caseExact) {
    a = actual.toLowerCase();
    b = expected.toLowerCase();
  }
  switch (op) {
    case 'eq': return a === b;
    case 'ne': throw new Error('ne is the negation of eq, evaluated by the caller');
    case 'co': return String(a).includes(String(b));
    case 'sw': return String(a).startsWith(String(b));
    case 'ew': return String(a).endsWith(String(b));
    case 'gt': return a > b;
    case 'ge': return a >= b;
    case 'lt': return a < b;
    case 'le': return a <= b;
  }
}

function lookup(path: AttrPath, inEmail: boolean): RefAttr {
  const key = `${path.attr}${path.subAttr === undefined ? '' : `.${path.subAttr}`}`.toLowerCase();
  const found = inEmail ? EMAIL_SUBS[key] : TABLE[key];
  if (found === undefined) throw new Error(`reference does not know ${key}`);
  return found;
}

function reference(filter: Filter, holder: unknown, inEmail = false): boolean {
  switch (filter.kind) {
    case 'and': return reference(filter.left, holder, inEmail) && reference(filter.right, holder, inEmail);
    case 'or': return reference(filter.left, holder, inEmail) || reference(filter.right, holder, inEmail);
    case 'not': return !reference(filter.filter, holder, inEmail);
    case 'present': return valuesAt(holder, lookup(filter.path, inEmail).keys).some(nonEmpty);
    case 'valuePath': return valuesAt(holder, ['emails']).some((e) => typeof e === 'object' && e !== null && reference(filter.filter, e, true));
    case 'compare': {
      let attr = lookup(filter.path, inEmail);
      if (filter.value === null) {
        const present = valuesAt(holder, attr.keys).some(nonEmpty);
        return filter.op === 'eq' ? !present : present;
      }
      if (attr.type === 'complex') attr = { ...TABLE['emails.value'] } as RefAttr; // `emails op v` compares emails.value
      // docs/concepts/filters.md: `ne` is the negation of `eq`, so it also holds when the attribute is unassigned.
      if (filter.op === 'ne') return !valuesAt(holder, attr.keys).some((v) => compareRef(attr, 'eq', v, filter.value));
      return valuesAt(holder, attr.keys).some((v) => compareRef(attr, filter.op, v, filter.value));
    }
  }
}

// ---- generators ----

const STRINGS = ['alice', 'Alice', 'ALICE', 'al', 'ce', 'bob', 'b', '', 'x@example.com', 'X@Example.COM', 'work', 'Work', 'home', 'zed'];
const DATES = ['2011-05-13T04:42:34Z', '2011-05-13T06:42:34+02:00', '2011-05-13T04:42:35Z', '2011-05-13T04:42:34.500Z', '2020-01-01T00:00:00Z'];
const ALL_OPS: CompareOperator[] = ['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le'];
const ORDER_OPS: CompareOperator[] = ['eq', 'ne', 'gt', 'ge', 'lt', 'le'];

const spell = (name: string) => fc.constantFrom(name, name.toUpperCase(), name.toLowerCase());

function comparison(path: fc.Arbitrary<AttrPath>, type: RefType): fc.Arbitrary<Filter> {
  const values: fc.Arbitrary<CompValue> =
    type === 'string' ? fc.constantFrom(...STRINGS) : type === 'boolean' ? fc.boolean() : fc.constantFrom(...DATES);
  const ops = type === 'string' ? ALL_OPS : type === 'boolean' ? (['eq', 'ne'] as CompareOperator[]) : ORDER_OPS;
  return fc.oneof(
    fc.record({ kind: fc.constant('compare' as const), path, op: fc.constantFrom(...ops), value: values }),
    fc.record({ kind: fc.constant('compare' as const), path, op: fc.constantFrom<CompareOperator>('eq', 'ne'), value: fc.constant(null) }),
    fc.record({ kind: fc.constant('present' as const), path }),
  );
}

const topPaths: [fc.Arbitrary<AttrPath>, RefType][] = [
  [spell('id').map((attr) => ({ attr })), 'string'],
  [spell('userName').map((attr) => ({ attr })), 'string'],
  [spell('userName').map((attr) => ({ uri: USER_URN, attr })), 'string'],
  [spell('displayName').map((attr) => ({ attr })), 'string'],
  [spell('active').map((attr) => ({ attr })), 'boolean'],
  [fc.tuple(spell('name'), spell('givenName')).map(([attr, subAttr]) => ({ attr, subAttr })), 'string'],
  [fc.constant({ attr: 'meta', subAttr: 'created' }), 'dateTime'],
  [spell('emails').map((attr) => ({ attr })), 'string'],
  [fc.tuple(spell('emails'), fc.constantFrom('value', 'type')).map(([attr, subAttr]) => ({ attr, subAttr })), 'string'],
  [fc.constant({ attr: 'emails', subAttr: 'primary' }), 'boolean'],
  [spell('employeeNumber').map((attr) => ({ attr })), 'string'],
  [spell('employeeNumber').map((attr) => ({ uri: ENTERPRISE_URN, attr })), 'string'],
];
const emailPaths: [fc.Arbitrary<AttrPath>, RefType][] = [
  [spell('value').map((attr) => ({ attr })), 'string'],
  [spell('type').map((attr) => ({ attr })), 'string'],
  [fc.constant({ attr: 'primary' }), 'boolean'],
];

function tree(leaf: fc.Arbitrary<Filter>): fc.Arbitrary<Filter> {
  return fc.letrec<{ f: Filter }>((tie) => ({
    f: fc.oneof(
      { depthSize: 'small' },
      leaf,
      fc.record({ kind: fc.constantFrom('and' as const, 'or' as const), left: tie('f'), right: tie('f') }),
      fc.record({ kind: fc.constant('not' as const), filter: tie('f') }),
    ),
  })).f;
}

const emailFilter = tree(fc.oneof(...emailPaths.map(([p, t]) => comparison(p, t))));
const userFilter = tree(
  fc.oneof(
    ...topPaths.map(([p, t]) => comparison(p, t)),
    fc.record({ kind: fc.constant('valuePath' as const), path: spell('emails').map((attr) => ({ attr })), filter: emailFilter }),
  ),
);

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 3 });
const email = fc.record(
  { value: fc.constantFrom(...STRINGS), type: fc.constantFrom('work', 'home', 'Work', ''), primary: fc.boolean() },
  { requiredKeys: [] },
);
const randomUser: fc.Arbitrary<ScimResource> = fc
  .record({
    id: fc.constantFrom('abc', 'ABC', 'alice'),
    userName: maybe(fc.constantFrom(...STRINGS)),
    displayName: maybe(fc.oneof(fc.constantFrom(...STRINGS), fc.constant(null))),
    active: maybe(fc.boolean()),
    name: maybe(fc.record({ givenName: fc.constantFrom(...STRINGS), familyName: fc.constantFrom(...STRINGS) }, { requiredKeys: [] })),
    emails: maybe(fc.array(email, { maxLength: 3 })),
    created: fc.constantFrom(...DATES),
    employeeNumber: maybe(fc.constantFrom(...STRINGS)),
  })
  .map(({ id, created, employeeNumber, ...rest }) => {
    const attributes: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(rest)) if (v !== undefined) attributes[k] = v;
    if (employeeNumber !== undefined) attributes[ENTERPRISE_URN] = { employeeNumber };
    const u = user(attributes);
    return { ...u, id, meta: { ...u.meta, created } };
  });

describe('compileFilter agrees with a reference interpreter (property)', () => {
  it('on random filters over random users', () => {
    const outcomes = { true: 0, false: 0 };
    fc.assert(
      fc.property(userFilter, fc.array(randomUser, { minLength: 1, maxLength: 12 }), (filter, users) => {
        const compiled = compileFilter(filter, userModel);
        if (!compiled.ok) throw new Error(compiled.error.detail);
        for (const u of users) {
          const expected = reference(filter, u);
          outcomes[`${expected}`]++;
          expect(compiled.value(u)).toBe(expected);
        }
      }),
      { numRuns: 1_500 },
    );
    // The generators are useful only if both outcomes are common.
    expect(Math.min(outcomes.true, outcomes.false)).toBeGreaterThan((outcomes.true + outcomes.false) / 5);
  });
});
