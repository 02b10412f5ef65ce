import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileFilter, compileValueFilter, type Filter } from '../../src/filter/index.js';
import type { AttributeDefinition } from '../../src/schema/index.js';
import { deviceModel, filterOf, user, userModel } from './filter-fixtures.js';

function attribute(model: typeof userModel, name: string): AttributeDefinition {
  const resolved = model.resolve({ attr: name });
  if (resolved === undefined) throw new Error(`no attribute ${name}`);
  return resolved.attribute;
}

const emails = attribute(userModel, 'emails');
const tags = attribute(deviceModel, 'tags');

function inner(text: string): Filter {
  const parsed = filterOf(`x[${text}]`);
  if (parsed.kind !== 'valuePath') throw new Error('unreachable');
  return parsed.filter;
}

function elementTest(text: string, on: AttributeDefinition = emails): (e: unknown) => boolean {
  const compiled = compileValueFilter(inner(text), on);
  if (!compiled.ok) throw new Error(compiled.error.detail);
  return compiled.value;
}

describe('compileValueFilter (a value path’s filter, for PATCH paths)', () => {
  it('tests one element with the sub-attributes’ semantics', () => {
    const work = { value: 'B@Example.com', type: 'Work', primary: true };
    const home = { value: 'b@home.org', type: 'home' };
    const test = elementTest('type eq "work" and value co "@example.com"');
    expect([work, home].map(test)).toEqual([true, false]);
    expect([work, home].map(elementTest('primary eq true'))).toEqual([true, false]);
    expect([work, home].map(elementTest('not (type eq "work")'))).toEqual([false, true]);
    expect([work, home, {}].map(elementTest('primary pr'))).toEqual([true, false, false]);
    expect([null, 'x', 5, [work]].map(test)).toEqual([false, false, false, false]);
  });

  it('names simple elements `value`', () => {
    expect(['red', 'Blue', 7].map(elementTest('value eq "blue"', tags))).toEqual([false, true, false]);
  });

  it('refuses what compileFilter refuses inside brackets', () => {
    const refused = (text: string, on: AttributeDefinition = emails) => {
      const compiled = compileValueFilter(inner(text), on);
      expect(compiled.ok).toBe(false);
      return compiled.ok ? '' : `${compiled.error.scimType}: ${compiled.error.detail}`;
    };
    expect(refused('nope eq "x"')).toBe("invalidFilter: Invalid filter: 'nope' is not a sub-attribute of 'emails'");
    expect(refused('primary gt true')).toMatch(/'gt' cannot be used on 'emails\[primary\]'/);
    expect(refused('value eq 5')).toMatch(/is of type string/);
    expect(refused('type eq "x"', attribute(userModel, 'userName'))).toMatch(/needs a complex or multi-valued attribute/);
    expect(compileValueFilter({ kind: 'valuePath', path: { attr: 'type' }, filter: inner('value pr') }, emails).ok).toBe(false);
  });

  it('agrees with compileFilter on the same brackets (property)', () => {
    const email = fc.record(
      { value: fc.constantFrom('a@x.com', 'A@X.COM', 'b@y.org', ''), type: fc.constantFrom('work', 'Work', 'home'), primary: fc.boolean() },
      { requiredKeys: [] },
    );
    const texts = ['type eq "work"', 'value ew ".com" and not (primary eq true)', 'type ne "home" or value pr', 'value eq null', 'primary eq false'];
    fc.assert(
      fc.property(fc.constantFrom(...texts), fc.array(email, { maxLength: 4 }), (text, list) => {
        const whole = compileFilter(filterOf(`emails[${text}]`), userModel);
        if (!whole.ok) throw new Error(whole.error.detail);
        expect(whole.value(user({ emails: list }))).toBe(list.some(elementTest(text)));
      }),
    );
  });
});
