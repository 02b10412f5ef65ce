import { describe, expect, it } from 'vitest';
import { compileFilter, parseFilter, type Filter } from '../../src/filter/index.js';
import type { ResourceModel } from '../../src/schema/index.js';
import type { ScimResource } from '../../src/schema/scim-resource.js';
import { device, deviceModel, ENTERPRISE_URN, filterOf, group, groupModel, user, userModel, USER_URN } from './filter-fixtures.js';

type Models = ResourceModel | readonly ResourceModel[];

function matches(text: string, resources: readonly ScimResource[], models: Models = userModel): boolean[] {
  const compiled = compileFilter(filterOf(text), models);
  if (!compiled.ok) throw new Error(`${text}: ${compiled.error.detail}`);
  return resources.map((r) => compiled.value(r));
}

function matchesOne(text: string, resource: ScimResource, models: Models = userModel): boolean {
  return matches(text, [resource], models)[0] as boolean;
}

function refused(text: string, models: Models = userModel): string {
  const compiled = compileFilter(filterOf(text), models);
  expect(compiled.ok).toBe(false);
  if (compiled.ok) return '';
  expect(compiled.error.status).toBe(400);
  expect(compiled.error.scimType).toBe('invalidFilter');
  return compiled.error.detail;
}

const babs = user({
  userName: 'bjensen',
  displayName: 'Babs Smith',
  title: 'Tour Guide',
  userType: 'Employee',
  active: true,
  name: { givenName: 'Barbara', familyName: "O'Malley" },
  emails: [
    { value: 'bjensen@Example.com', type: 'work', primary: true },
    { value: 'babs@jensen.org', type: 'home' },
  ],
  ims: [{ value: 'babs@foo.com', type: 'xmpp' }],
  [ENTERPRISE_URN]: { employeeNumber: '701984', manager: { value: '26118915-6090-4610-87e4-49d8ca9f808d', displayName: 'John Smith' } },
});
const jim = user({ userName: 'jim', displayName: 'Jim Beam', userType: 'Intern', active: false, emails: [{ value: 'jim@example.org', type: 'home' }] });
const bare = user({ userName: 'bare' });

describe('compileFilter: strings follow caseExact (RFC 7644 §3.4.2.2, RFC 7643 §2.2)', () => {
  it('compares caseExact false attributes ignoring case, both ways', () => {
    expect(matches('userName eq "BJENSEN"', [babs, jim])).toEqual([true, false]);
    expect(matches('displayName co "smith"', [babs, jim])).toEqual([true, false]);
    expect(matches('DISPLAYNAME SW "babs"', [babs, jim])).toEqual([true, false]);
    expect(matches('name.familyName ew "MALLEY"', [babs, jim])).toEqual([true, false]);
  });

  it('compares caseExact true attributes exactly', () => {
    expect(matchesOne(`id eq "${babs.id}"`, babs)).toBe(true);
    expect(matchesOne(`id eq "${babs.id.toUpperCase()}"`, babs)).toBe(false);
    expect(matchesOne(`urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value eq "26118915-6090-4610-87E4-49D8CA9F808D"`, babs)).toBe(false);
    const d = device({ serial: 'AbC-1' });
    expect(matches('serial eq "AbC-1"', [d], deviceModel)).toEqual([true]);
    expect(matches('serial eq "abc-1"', [d], deviceModel)).toEqual([false]);
    expect(matches('serial co "bC"', [d], deviceModel)).toEqual([true]);
    expect(matches('serial co "BC"', [d], deviceModel)).toEqual([false]);
  });

  it('implements every operator on strings, ordering lexicographically', () => {
    const cases: [string, boolean, boolean][] = [
      ['userName eq "jim"', false, true],
      ['userName ne "jim"', true, false],
      ['userName co "ense"', true, false],
      ['userName sw "bj"', true, false],
      ['userName ew "sen"', true, false],
      ['userName gt "c"', false, true],
      ['userName ge "jim"', false, true],
      ['userName lt "c"', true, false],
      ['userName le "bjensen"', true, false],
      ['userName gt "BJENSEN"', false, true],
      ['userName ge "BJENSEN"', true, true],
    ];
    for (const [text, b, j] of cases) expect(matches(text, [babs, jim]), text).toEqual([b, j]);
  });

  it('treats co/sw/ew with an empty string as matching every value', () => {
    expect(matches('userName co ""', [babs, bare])).toEqual([true, true]);
    expect(matches('title sw ""', [babs, bare])).toEqual([true, false]);
  });
});

describe('compileFilter: numbers, booleans, dateTimes, binaries', () => {
  const d1 = device({ age: 3, score: 2.5, enabled: true, seen: '2024-01-01T10:00:00Z', blob: 'QUJD', home: 'https://a.example/x' });
  const d2 = device({ age: 10, score: -1, enabled: false, seen: '2024-01-01T12:00:00+02:00', blob: 'qujd' });
  const devices = [d1, d2];

  it('compares integers and decimals numerically', () => {
    expect(matches('age gt 5', devices, deviceModel)).toEqual([false, true]);
    expect(matches('age le 3', devices, deviceModel)).toEqual([true, false]);
    expect(matches('age eq 3.0', devices, deviceModel)).toEqual([true, false]);
    expect(matches('score ge 2.5', devices, deviceModel)).toEqual([true, false]);
    expect(matches('score lt 0', devices, deviceModel)).toEqual([false, true]);
    expect(matches('score ne 2.5', devices, deviceModel)).toEqual([false, true]);
    expect(matches('age gt 1e0', devices, deviceModel)).toEqual([true, true]);
  });

  it('compares booleans by value and refuses ordering', () => {
    expect(matches('enabled eq true', devices, deviceModel)).toEqual([true, false]);
    expect(matches('enabled ne true', devices, deviceModel)).toEqual([false, true]);
    expect(matches('active eq false', [babs, jim, bare])).toEqual([false, true, false]);
    expect(refused('active gt true')).toBe("Invalid filter: the operator 'gt' cannot be used on 'active', which is of type boolean; use eq or ne");
    expect(refused('active co true')).toMatch(/'co' cannot be used on 'active'/);
  });

  it('compares dateTimes as instants, whatever the offset or precision', () => {
    // d2 was seen at 10:00Z too, written with a +02:00 offset.
    expect(matches('seen eq "2024-01-01T10:00:00Z"', devices, deviceModel)).toEqual([true, true]);
    expect(matches('seen eq "2024-01-01T11:00:00+01:00"', devices, deviceModel)).toEqual([true, true]);
    expect(matches('seen gt "2024-01-01T09:59:59.999Z"', devices, deviceModel)).toEqual([true, true]);
    expect(matches('seen lt "2024-01-01T10:00:00.0000001Z"', devices, deviceModel)).toEqual([false, false]);
    expect(matches('seen ge "2024-01-01T10:00:00"', devices, deviceModel)).toEqual([true, true]);
    expect(matches('seen lt "2024-01-02"', devices, deviceModel)).toEqual([true, true]);
    expect(matches('seen ne "2024-01-01T10:00:00Z"', devices, deviceModel)).toEqual([false, false]);
    expect(matches('meta.lastModified gt "2011-05-13T04:42:33Z"', [babs])).toEqual([true]);
    expect(matches('meta.created le "2011-05-13T04:42:34Z"', [babs])).toEqual([true]);
  });

  it('refuses dateTime comparisons with non-dates and substring operators', () => {
    expect(refused('meta.created gt 5')).toMatch(/'meta.created' is of type dateTime; the comparison value must be a date and time/);
    expect(refused('meta.created gt "yesterday"')).toMatch(/dateTime/);
    expect(refused('meta.created gt "2011-02-30T00:00:00Z"')).toMatch(/dateTime/);
    expect(refused('meta.created sw "2011"')).toMatch(/'sw' cannot be used on 'meta.created'/);
  });

  it('compares binaries exactly with eq/ne only (RFC 7644 Table 3)', () => {
    expect(matches('blob eq "QUJD"', devices, deviceModel)).toEqual([true, false]);
    expect(matches('blob ne "QUJD"', devices, deviceModel)).toEqual([false, true]);
    expect(refused('blob gt "QUJD"', deviceModel)).toMatch(/'gt' cannot be used on 'blob', which is of type binary/);
    expect(refused('blob co "Q"', deviceModel)).toMatch(/'co' cannot be used/);
  });

  it('compares references as strings by caseExact', () => {
    expect(matches('home sw "HTTPS://"', devices, deviceModel)).toEqual([true, false]);
  });

  it('refuses values of the wrong JSON type', () => {
    expect(refused('active eq "yes"')).toBe("Invalid filter: 'active' is of type boolean; the comparison value must be true or false");
    expect(refused('active eq "true"')).toMatch(/boolean/);
    expect(refused('userName eq 5')).toMatch(/'userName' is of type string; the comparison value must be a string/);
    expect(refused('userName eq true')).toMatch(/string/);
    expect(refused('age eq "3"', deviceModel)).toMatch(/'age' is of type integer; the comparison value must be a number/);
    expect(refused('age co 3', deviceModel)).toMatch(/'co' cannot be used on 'age'/);
  });
});

describe('compileFilter: null, pr and unassigned values (RFC 7643 §2.5)', () => {
  const empty = [user({ title: '' }), user({ title: null }), user({ emails: [] }), user({ name: {} }), user({ name: { givenName: '' } })];

  it('pr means a non-empty value', () => {
    expect(matches('title pr', [babs, bare, ...empty])).toEqual([true, false, false, false, false, false, false]);
    expect(matches('emails pr', [babs, bare, ...empty])).toEqual([true, false, false, false, false, false, false]);
    expect(matches('name pr', [babs, bare, ...empty])).toEqual([true, false, false, false, false, false, false]);
    expect(matches('emails.type pr', [babs, jim, user({ emails: [{ value: 'x' }] })])).toEqual([true, true, false]);
    expect(matches('active pr', [babs, jim, bare])).toEqual([true, true, false]);
    expect(matches('age pr', [device({ age: 0 }), device()], deviceModel)).toEqual([true, false]);
  });

  it('eq null holds when unassigned, ne null when assigned', () => {
    expect(matches('title eq null', [babs, bare, ...empty])).toEqual([false, true, true, true, true, true, true]);
    expect(matches('title ne null', [babs, bare, ...empty])).toEqual([true, false, false, false, false, false, false]);
    expect(matches('emails eq null', [babs, bare, user({ emails: [] })])).toEqual([false, true, true]);
    expect(matches('active eq null', [jim, bare])).toEqual([false, true]);
  });

  it('refuses null with operators other than eq and ne', () => {
    expect(refused('title gt null')).toBe("Invalid filter: null can only be compared with eq or ne, not 'gt' ('title')");
    expect(refused('title co null')).toMatch(/null can only be compared/);
  });

  it('never matches an absent attribute with a comparison other than ne', () => {
    expect(matches('title lt "zzz"', [babs, bare])).toEqual([true, false]);
    expect(matches('title eq "x"', [babs, bare])).toEqual([false, false]);
  });

  it('ne is the negation of eq: an unassigned attribute is not equal (docs/concepts/filters.md)', () => {
    expect(matches('title ne "x"', [babs, bare, ...empty])).toEqual([true, true, true, true, true, true, true]);
    expect(matches(`title ne "${String(babs.title)}"`, [babs, bare])).toEqual([false, true]);
    expect(matches('not (title eq "x")', [babs, bare])).toEqual(matches('title ne "x"', [babs, bare]));
    expect(matches('active ne true', [babs, jim, bare])).toEqual([false, true, true]);
    expect(matches('emails[type ne "work"]', [user({ emails: [{ value: 'a@b.c' }] }), user({ emails: [{ type: 'work' }] })])).toEqual([true, false]);
  });
});

describe('compileFilter: multi-valued and complex attributes', () => {
  it('matches when any value matches', () => {
    expect(matches('emails.type eq "home"', [babs, jim, bare])).toEqual([true, true, false]);
    expect(matches('emails.value ew "@jensen.org"', [babs, jim])).toEqual([true, false]);
    // ne negates eq over all values: true when no value is "work" (an email of another type does not make it true).
    expect(matches('emails.type ne "work"', [babs, jim, user({ emails: [{ type: 'work' }] }), bare])).toEqual([false, true, false, true]);
    expect(matches('tags eq "RED"', [device({ tags: ['blue', 'red'] }), device({ tags: ['blue'] })], deviceModel)).toEqual([true, false]);
    expect(matches('ports gt 1000', [device({ ports: [22, 8080] }), device({ ports: [22] })], deviceModel)).toEqual([true, false]);
  });

  it('compares the value sub-attribute of a complex multi-valued attribute named alone', () => {
    expect(matches('emails co "example.com"', [babs, jim])).toEqual([true, false]);
    expect(matches('emails eq "babs@jensen.org"', [babs, jim])).toEqual([true, false]);
    expect(refused('parts eq "x"', deviceModel)).toBe("Invalid filter: 'parts' has no 'value' sub-attribute to compare; name one of its sub-attributes");
  });

  it('refuses a comparison on a complex single-valued attribute', () => {
    expect(refused('name eq "Barbara"')).toMatch(/^Invalid filter: 'name' is a complex attribute; compare one of its sub-attributes/);
    expect(refused('meta gt "x"')).toMatch(/'meta' is a complex attribute/);
  });

  it('holds value-path conditions on one and the same element (RFC 7644 Table 5)', () => {
    const mixed = user({
      emails: [
        { value: 'a@work.example', type: 'home' },
        { value: 'a@home.example', type: 'work' },
      ],
    });
    expect(matches('emails[type eq "work" and value co "@work.example"]', [mixed])).toEqual([false]);
    expect(matches('emails.type eq "work" and emails.value co "@work.example"', [mixed])).toEqual([true]);
    expect(matches('emails[type eq "work" and value co "@example.com"]', [babs, jim])).toEqual([true, false]);
    expect(matches('emails[not (type eq "work")]', [babs, jim, user({ emails: [{ type: 'work' }] })])).toEqual([true, true, false]);
    expect(matches('emails[type eq "work" or type eq "home"]', [babs, jim, bare])).toEqual([true, true, false]);
    expect(matches('emails[primary eq true]', [babs, jim])).toEqual([true, false]);
  });

  it('folds Entra’s emails[type eq "work"].value eq "x" into one element', () => {
    const mixed = user({ emails: [{ value: 'x@y', type: 'home' }, { value: 'z@y', type: 'work' }] });
    expect(matches('emails[type eq "work"].value eq "Z@Y"', [mixed])).toEqual([true]);
    expect(matches('emails[type eq "work"].value eq "x@y"', [mixed])).toEqual([false]);
    expect(matches('emails[type eq "home"].value pr', [mixed, babs, jim])).toEqual([true, true, true]);
  });

  it('applies a value path to a multi-valued attribute of simple values, whose elements are `value`', () => {
    const devices = [device({ tags: ['Blue', 'red'] }), device({ tags: ['blue'] }), device()];
    expect(matches('tags[value eq "RED"]', devices, deviceModel)).toEqual([true, false, false]);
    expect(matches('tags[value sw "b" and value ew "e"]', devices, deviceModel)).toEqual([true, true, false]);
    expect(matches('ports[value gt 1000 and value lt 9000]', [device({ ports: [22, 8080] }), device({ ports: [22, 9999] })], deviceModel)).toEqual([true, false]);
    expect(refused('tags[kind eq "x"]', deviceModel)).toBe("Invalid filter: 'kind' is not a sub-attribute of 'tags'");
  });

  it('applies a value path to a single-valued complex attribute as one element', () => {
    expect(matches('name[givenName eq "barbara" and familyName sw "o"]', [babs, jim])).toEqual([true, false]);
  });

  it('refuses value paths on what is not a complex attribute, and unknown sub-attributes', () => {
    expect(refused('userName[value eq "x"]')).toBe("Invalid filter: 'userName[…]' needs a complex or multi-valued attribute, and 'userName' is neither");
    expect(refused('name.givenName[value eq "x"]')).toMatch(/needs a complex or multi-valued attribute/);
    expect(refused('password[value eq "x"]')).toMatch(/needs a complex or multi-valued attribute/);
    expect(refused('emails[nope eq "x"]')).toBe("Invalid filter: 'nope' is not a sub-attribute of 'emails'");
    expect(refused('emails[emails.type eq "x"]')).toMatch(/'emails.type' is not a sub-attribute of 'emails'/);
    expect(refused('emails[type gt true]')).toMatch(/'emails\[type\]' is of type string/);
  });

  it('refuses a hand-built nested value path', () => {
    const nested: Filter = {
      kind: 'valuePath',
      path: { attr: 'emails' },
      filter: { kind: 'valuePath', path: { attr: 'type' }, filter: { kind: 'present', path: { attr: 'value' } } },
    };
    const compiled = compileFilter(nested, userModel);
    expect(compiled.ok).toBe(false);
  });

  it('refuses, without throwing, a hand-built tree deeper than the stack', () => {
    let deep: Filter = { kind: 'present', path: { attr: 'userName' } };
    for (let i = 0; i < 200_000; i++) deep = { kind: 'not', filter: deep };
    const compiled = compileFilter(deep, userModel);
    expect(compiled.ok || compiled.error.detail).toBe('Invalid filter: the expression is nested too deeply');
  });

  it('refuses, without throwing, a tree that is not a filter', () => {
    const compiled = compileFilter({ kind: 'regex' } as unknown as Filter, userModel);
    expect(compiled.ok || compiled.error.detail).toBe('Invalid filter: not a filter expression');
    expect(compileFilter(null as unknown as Filter, userModel).ok).toBe(false);
  });

  it('survives resources whose values have the wrong shape', () => {
    const odd = [
      user({ emails: 'not-an-array' }),
      user({ emails: [null, 'x', 5, [], { value: 7 }] }),
      user({ name: 'Barbara' }),
      user({ userName: 42 }),
      user({ meta: null }),
      user({ [ENTERPRISE_URN]: 'x' }),
    ];
    for (const text of [
      'emails.value co "x"',
      'emails[type eq "work"]',
      'name.givenName eq "Barbara"',
      'userName eq "42"',
      'meta.created gt "2000-01-01T00:00:00Z"',
      'employeeNumber pr',
      'emails pr',
      'userName ne "x"',
    ]) {
      expect(() => matches(text, odd)).not.toThrow();
    }
    // A malformed but non-empty value is still a value; `null`, `'x'`, 5 and `{value: 7}` are elements.
    expect(matches('emails pr', odd)).toEqual([true, true, false, false, false, false]);
    expect(matches('emails.value eq "x"', odd)).toEqual([false, false, false, false, false, false]);
  });
});

describe('compileFilter: attribute resolution', () => {
  it('resolves names case-insensitively, URN-qualified or not', () => {
    expect(matchesOne('USERNAME eq "bjensen"', babs)).toBe(true);
    expect(matchesOne('urn:ietf:params:scim:schemas:core:2.0:User:userName sw "BJ"', babs)).toBe(true);
    expect(matchesOne('URN:IETF:PARAMS:SCIM:SCHEMAS:CORE:2.0:USER:NAME.GIVENNAME eq "barbara"', babs)).toBe(true);
    expect(matchesOne('urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber eq "701984"', babs)).toBe(true);
    expect(matchesOne('employeeNumber eq "701984"', babs)).toBe(true);
    expect(matchesOne('urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.displayName co "smith"', babs)).toBe(true);
    expect(matchesOne('Emails[TYPE eq "work"].VALUE co "example"', babs)).toBe(true);
  });

  it('filters on schemas (RFC 7644 Figure 2)', () => {
    const withExtension = user({ schemas: [USER_URN, ENTERPRISE_URN] });
    expect(matches(`schemas eq "${ENTERPRISE_URN}"`, [withExtension, babs])).toEqual([true, false]);
    expect(matches(`schemas eq "${ENTERPRISE_URN.toUpperCase()}"`, [withExtension])).toEqual([true]);
    expect(matches('schemas pr', [babs])).toEqual([true]);
  });

  it('refuses unknown attributes at compile time, naming them', () => {
    expect(refused('nickname2 eq "x"')).toBe("Invalid filter: unknown attribute 'nickname2'");
    expect(refused('name.nope eq "x"')).toBe("Invalid filter: unknown attribute 'name.nope'");
    expect(refused('urn:example:nope:title pr')).toBe("Invalid filter: unknown attribute 'urn:example:nope:title'");
    expect(refused('title pr and (nope pr or userName pr)')).toMatch(/unknown attribute 'nope'/);
    const proto = compileFilter({ kind: 'present', path: { attr: '__proto__' } }, userModel);
    expect(proto.ok || proto.error.detail).toBe("Invalid filter: unknown attribute '__proto__'");
    expect(refused('constructor pr')).toMatch(/unknown attribute 'constructor'/);
    const subProto = compileFilter({ kind: 'present', path: { attr: 'name', subAttr: '__proto__' } }, userModel);
    expect(subProto.ok).toBe(false);
  });

  it('refuses returned: never attributes such as password', () => {
    expect(refused('password eq "secret"')).toBe("Invalid filter: 'password' is never returned and cannot be filtered on");
    expect(refused('password pr')).toMatch(/never returned/);
    expect(refused('title pr or not (password eq null)')).toMatch(/'password'/);
    expect(refused('secret pr', deviceModel)).toMatch(/'secret' is never returned/);
  });

  it('combines and, or and not with RFC precedence', () => {
    expect(matches('title pr and userType eq "Employee"', [babs, jim])).toEqual([true, false]);
    expect(matches('title pr or userType eq "Intern"', [babs, jim, bare])).toEqual([true, true, false]);
    expect(matches('userType eq "Intern" or userType eq "Employee" and active eq false', [babs, jim])).toEqual([false, true]);
    expect(matches('(userType eq "Intern" or userType eq "Employee") and active eq true', [babs, jim])).toEqual([true, false]);
    expect(matches('userType ne "Employee" and not (emails co "example.com" or emails.value co "example.org")', [babs, jim])).toEqual([false, false]);
    expect(matches('not (userName eq "jim")', [babs, jim])).toEqual([true, false]);
  });

  it('compiles long and/or chains without deep recursion', () => {
    const chain = Array.from({ length: 20_000 }, (_, i) => `userName eq "u${i}"`).join(' or ');
    const parsed = parseFilter(`${chain} or userName eq "jim"`, { maxLength: 1_000_000 });
    if (!parsed.ok) throw new Error(parsed.error.detail);
    const compiled = compileFilter(parsed.value, userModel);
    expect(compiled.ok && [babs, jim].map(compiled.value)).toEqual([false, true]);
    const ands = parseFilter(Array.from({ length: 20_000 }, () => 'userName pr').join(' and '), { maxLength: 1_000_000 });
    if (!ands.ok) throw new Error(ands.error.detail);
    const all = compileFilter(ands.value, userModel);
    expect(all.ok && [babs, user()].map(all.value)).toEqual([true, false]);
  });
});

describe('compileFilter: several resource types (server-root search)', () => {
  const admins = group({ displayName: 'Admins', members: [{ value: babs.id, type: 'User' }] });
  const both = [userModel, groupModel];

  it('dispatches on meta.resourceType', () => {
    expect(matches('displayName sw "B"', [babs, jim, admins], both)).toEqual([true, false, false]);
    expect(matches('displayName co "a"', [babs, jim, admins], both)).toEqual([true, true, true]);
  });

  it('makes an attribute known to only some types false on the others', () => {
    expect(matches('userName pr', [babs, admins], both)).toEqual([true, false]);
    expect(matches(`members[value eq "${babs.id}"]`, [babs, admins], both)).toEqual([false, true]);
    expect(matches('userName eq "bjensen" or displayName eq "admins"', [babs, jim, admins], both)).toEqual([true, false, true]);
    expect(matches('title eq null', [bare, admins], both)).toEqual([true, false]);
  });

  it('refuses an attribute unknown to every type', () => {
    expect(refused('nope eq "x"', both)).toBe("Invalid filter: unknown attribute 'nope' (not an attribute of User or Group)");
    expect(refused('emails[nope eq "x"]', both)).toBe("Invalid filter: 'nope' is not a sub-attribute of 'emails'");
  });

  it('refuses a filter unfit for the type of any type that knows the attribute', () => {
    expect(refused('password pr', both)).toMatch(/never returned/);
    expect(refused('displayName gt 3', both)).toMatch(/'displayName' is of type string/);
  });

  it('matches nothing of a type it was not compiled for', () => {
    expect(matches('id pr', [device({})], both)).toEqual([false]);
    expect(matches('id pr', [{ ...babs, meta: undefined } as unknown as ScimResource], both)).toEqual([false]);
  });

  it('refuses an empty list of types', () => {
    expect(refused('id pr', [])).toMatch(/no resource type/);
  });
});

describe('caseExact false strings compare by one key (NFC, lower-cased) for every operator', () => {
  const decomposed = user({ userName: 'jose', name: { givenName: 'Jose\u0301' } });
  const precomposed = user({ userName: 'josé2', name: { givenName: 'JOSÉ' } });

  it('co, sw and ew find a decomposed é as eq does, whichever form the filter value has', () => {
    for (const value of ['é', 'e\u0301', 'É']) {
      expect(matches(`name.givenName co "${value}"`, [decomposed, precomposed])).toEqual([true, true]);
      expect(matches(`name.givenName ew "S${value}"`, [decomposed, precomposed])).toEqual([true, true]);
      expect(matches(`name.givenName sw "jos${value}"`, [decomposed, precomposed])).toEqual([true, true]);
      expect(matches(`name.givenName eq "jos${value}"`, [decomposed, precomposed])).toEqual([true, true]);
    }
  });

  it('orders by the same key: a decomposed José is neither greater nor less than a precomposed one', () => {
    expect(matches('name.givenName gt "josé"', [decomposed, precomposed])).toEqual([false, false]);
    expect(matches('name.givenName ge "josé"', [decomposed, precomposed])).toEqual([true, true]);
    expect(matches('name.givenName lt "josé"', [decomposed, precomposed])).toEqual([false, false]);
  });

  it('leaves caseExact attributes compared as written', () => {
    expect(matchesOne('externalId co "é"', user({ userName: 'x', externalId: 'Jose\u0301' }))).toBe(false);
  });
});
