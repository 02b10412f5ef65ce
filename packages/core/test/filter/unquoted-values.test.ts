import { describe, expect, it } from 'vitest';
import { compileFilter, parseFilter } from '../../src/filter/index.js';
import { filterOf, user, userModel } from './filter-fixtures.js';

const lenient = { unquotedValues: true } as const;

describe('parseFilter { unquotedValues } (compatibility, off by default)', () => {
  it('refuses bare values by default (RFC 7644: compValue is JSON)', () => {
    expect(parseFilter('userName sw O').ok).toBe(false);
  });

  it('reads the Microsoft SCIM validator’s bare values as strings', () => {
    expect(parseFilter('userName sw O', lenient)).toEqual(parseFilter('userName sw "O"'));
    expect(parseFilter('meta.Created gt 2015-10-10T14:38:21.8617979-07:00', lenient)).toEqual(
      parseFilter('meta.Created gt "2015-10-10T14:38:21.8617979-07:00"'),
    );
    expect(parseFilter('name.FamilyName eq Employee and (emails.Value co example.com or emails.Value co example.org)', lenient)).toEqual(
      parseFilter('name.FamilyName eq "Employee" and (emails.Value co "example.com" or emails.Value co "example.org")'),
    );
    expect(parseFilter('emails[type eq work]', lenient)).toEqual(parseFilter('emails[type eq "work"]'));
    expect(parseFilter('displayName eq O\\Brien', lenient)).toEqual(parseFilter('displayName eq "O\\\\Brien"'));
  });

  it('keeps JSON values typed and string literals untouched', () => {
    expect(parseFilter('active eq TRUE and age gt -1.5e2 and title eq null', lenient)).toEqual(parseFilter('active eq true and age gt -1.5e2 and title eq null'));
    expect(parseFilter('title eq "a eq b" and nickName eq "x\\" co y"', lenient)).toEqual(parseFilter('title eq "a eq b" and nickName eq "x\\" co y"'));
    expect(parseFilter('userName pr and title pr', lenient)).toEqual(parseFilter('userName pr and title pr'));
  });

  it('evaluates the validator’s filters as their quoted forms', () => {
    const parsed = parseFilter('meta.Created gt 2015-10-10T14:38:21.8617979-07:00', lenient);
    if (!parsed.ok) throw new Error(parsed.error.detail);
    const compiled = compileFilter(parsed.value, userModel);
    expect(compiled.ok && compiled.value(user())).toBe(false);
    const later = compileFilter(filterOf('meta.created lt "2015-10-10T21:38:22Z"'), userModel);
    expect(later.ok && later.value(user())).toBe(true);
  });

  it('still refuses what is malformed for other reasons', () => {
    expect(parseFilter('userName sw', lenient).ok).toBe(false);
    expect(parseFilter('userName sw O P', lenient).ok).toBe(false);
    expect(parseFilter('userName regex O', lenient).ok).toBe(false);
  });
});
