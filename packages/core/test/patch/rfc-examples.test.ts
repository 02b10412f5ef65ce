import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applyPatch } from '../../src/patch/index.js';
import type { ScimResource } from '../../src/schema/scim-resource.js';
import { body, patched, sampleGroup, sampleUser, groupModel, userModel } from './patch-fixtures.js';

const BABS = { display: 'Babs Jensen', $ref: 'https://example.com/v2/Users/2819c223...413861904646', value: '2819c223-7f76-453a-919d-413861904646' };
const JAMES = { display: 'James Smith', $ref: 'https://example.com/v2/Users/08e1d05d...473d93df9210', value: '08e1d05d-121c-4561-8b96-473d93df9210' };
const values = (r: ScimResource, key = 'members') => ((r[key] ?? []) as { value: string }[]).map((m) => m.value);

/** The examples of RFC 7644 §3.5.2, copied from the RFC text. `display` of a member is readOnly (Group schema) and is dropped. */
describe('RFC 7644 §3.5.2 examples', () => {
  it('Figure 6 / §3.5.2.1: add a member to a group', () => {
    const group = patched(groupModel, { ...sampleGroup(), members: [] }, [{ op: 'add', path: 'members', value: [BABS] }]);
    expect(group.members).toEqual([{ $ref: BABS.$ref, value: BABS.value }]);
  });

  it('§3.5.2.1: adding a member already in the group changes nothing', () => {
    const group = sampleGroup();
    const result = applyPatch(groupModel, group, body({ op: 'add', path: 'members', value: [BABS] }));
    // Same value, so the same member: its sub-attributes are merged ($ref spelled differently here).
    expect(result.ok && result.value).toEqual({ resource: group, changed: false, touched: expect.any(Set), changes: [] });
    const exact = applyPatch(groupModel, group, body({ op: 'add', path: 'members', value: [{ value: BABS.value }] }));
    expect(exact.ok && exact.value.changed).toBe(false);
  });

  it('§3.5.2.1: add without a path (emails and nickName)', () => {
    const user = patched(userModel, sampleUser(), [{ op: 'add', value: { emails: [{ value: 'babs@jensen.org', type: 'home' }], nickname: 'Babs' } }]);
    expect(user.emails).toEqual(sampleUser().emails);
    expect(user.nickName).toBe('Babs');
    const other = patched(userModel, sampleUser(), [{ op: 'add', value: { emails: [{ value: 'babs2@jensen.org', type: 'home' }], nickname: 'Babsy' } }]);
    expect(values(other, 'emails')).toEqual(['bjensen@example.com', 'babs@jensen.org', 'babs2@jensen.org']);
    expect(other.nickName).toBe('Babsy');
  });

  it('§3.5.2.2: remove a single member', () => {
    const group = patched(groupModel, sampleGroup(), [{ op: 'remove', path: 'members[value eq "2819c223-7f76-453a-919d-413861904646"]' }]);
    expect(values(group)).toEqual(['902c246b-6245-4190-8e05-00816be7344a']);
  });

  it('§3.5.2.2: remove all members', () => {
    expect(patched(groupModel, sampleGroup(), [{ op: 'remove', path: 'members' }])).not.toHaveProperty('members');
  });

  it('§3.5.2.2: remove a value of a complex multi-valued attribute', () => {
    const user = patched(userModel, sampleUser(), [{ op: 'remove', path: 'emails[type eq "work" and value ew "example.com"]' }]);
    expect(values(user, 'emails')).toEqual(['babs@jensen.org']);
  });

  it('§3.5.2.2: remove and add one member (no space before the quote, as printed)', () => {
    const group = patched(groupModel, sampleGroup(), [
      { op: 'remove', path: 'members[value eq"2819c223-7f76-453a-919d-413861904646"]' },
      { op: 'add', path: 'members', value: [JAMES] },
    ]);
    expect(values(group)).toEqual(['902c246b-6245-4190-8e05-00816be7344a', JAMES.value]);
  });

  it('§3.5.2.2: replace all members by remove then add', () => {
    const group = patched(groupModel, sampleGroup(), [{ op: 'remove', path: 'members' }, { op: 'add', path: 'members', value: [BABS, JAMES] }]);
    expect(values(group)).toEqual([BABS.value, JAMES.value]);
  });

  it('§3.5.2.3: replace all members in one operation', () => {
    const group = patched(groupModel, sampleGroup(), [{ op: 'replace', path: 'members', value: [BABS, JAMES] }]);
    expect(values(group)).toEqual([BABS.value, JAMES.value]);
  });

  it('§3.5.2.3: replace the work address; primary: true clears the other primary', () => {
    const user = { ...sampleUser(), addresses: [{ type: 'work', streetAddress: 'old' }, { type: 'home', streetAddress: 'h', primary: true }] };
    const work = {
      type: 'work',
      streetAddress: '911 Universal City Plaza',
      locality: 'Hollywood',
      region: 'CA',
      postalCode: '91608',
      country: 'US',
      formatted: '911 Universal City Plaza\nHollywood, CA 91608 US',
      primary: true,
    };
    expect(patched(userModel, user, [{ op: 'replace', path: 'addresses[type eq "work"]', value: work }]).addresses).toEqual([
      work,
      { type: 'home', streetAddress: 'h', primary: false },
    ]);
  });

  it('§3.5.2.3: replace one sub-attribute of the work address', () => {
    const user = patched(userModel, sampleUser(), [{ op: 'replace', path: 'addresses[type eq "work"].streetAddress', value: '1010 Broadway Ave' }]);
    expect((user.addresses as { streetAddress: string }[]).map((a) => a.streetAddress)).toEqual(['1010 Broadway Ave', '456 Hollywood Blvd']);
  });

  it('§3.5.2.3: replace all email values and the nickname without a path', () => {
    const emails = [
      { value: 'bjensen@example.com', type: 'work', primary: true },
      { value: 'babs@jensen.org', type: 'home' },
    ];
    const user = patched(userModel, { ...sampleUser(), emails: [{ value: 'x@y.z', type: 'other' }] }, [{ op: 'replace', value: { emails, nickname: 'Babs' } }]);
    expect(user.emails).toEqual(emails);
    expect(user.nickName).toBe('Babs');
  });
});

/** Extra check: the RFC 7644 §3.5.2 PatchOp samples of scim2-models, applied to the RFC 7643 §8.2 user and §8.4 group. */
const SAMPLES = new URL('../../../../../shared/conformance/scim2-models-rfc-samples/', import.meta.url);
describe('scim2-models RFC PatchOp samples (when /work/shared is present)', () => {
  const files = existsSync(SAMPLES) ? readdirSync(SAMPLES).filter((f) => f.startsWith('rfc7644-3.5.2') && f.endsWith('.json')) : [];
  const read = (name: string): unknown => JSON.parse(readFileSync(new URL(name, SAMPLES), 'utf8'));
  const user = (): ScimResource => read('rfc7643-8.2-user-full.json') as ScimResource;
  const group = (): ScimResource => read('rfc7643-8.4-group.json') as ScimResource;

  /** What each sample must do, beyond succeeding. */
  const expectations: Record<string, (before: ScimResource, after: ScimResource) => void> = {
    'add_emails': (_b, a) => {
      expect(values(a, 'emails')).toContain('babs@jensen.org');
      expect(a.nickName).toBe('Babs');
    },
    'add_members': (_b, a) => expect(values(a)).toContain('2819c223-7f76-453a-919d-413861904646'),
    'remove_all_members': (_b, a) => expect(a).not.toHaveProperty('members'),
    // The sample's id is elided ("…"), so it matches no member: nothing is removed, one is added.
    'remove_and_add_one_member': (b, a) => expect(values(a)).toEqual([...values(b), '08e1d05d...473d93df9210']),
    'remove_multi_complex_value': (_b, a) => expect(values(a, 'emails')).toEqual(['babs@jensen.org']),
    'remove_one_member': (b, a) => expect(a.members).toEqual(b.members),
    'replace_all_email_values': (_b, a) => expect(values(a, 'emails')).toEqual(['bjensen@example.com', 'babs@jensen.org']),
    'replace_all_members': (_b, a) => expect(values(a)).toEqual(['2819c223-7f76-453a-919d-413861904646', '08e1d05d-121c-4561-8b96-473d93df9210']),
    'replace_street_address': (_b, a) => expect((a.addresses as { type: string; streetAddress: string }[]).find((x) => x.type === 'work')?.streetAddress).toBe('1010 Broadway Ave'),
    'replace_user_work_address': (_b, a) => {
      const addresses = a.addresses as { type: string; locality: string; primary?: boolean }[];
      expect(addresses.find((x) => x.type === 'work')?.locality).toBe('Hollywood');
      expect(addresses.filter((x) => x.primary === true).length).toBe(1);
    },
  };

  it('finds the samples it checks', () => {
    expect(files.length === 0 || files.length >= 10).toBe(true);
  });

  for (const file of files) {
    it(file, () => {
      const isGroup = file.includes('member');
      const before = isGroup ? group() : user();
      const result = applyPatch(isGroup ? groupModel : userModel, before, read(file));
      if (!result.ok) throw new Error(JSON.stringify(result.error));
      const key = Object.keys(expectations).find((k) => file.endsWith(`patch_op-${k}.json`));
      expect(key).toBeDefined();
      if (key !== undefined) expectations[key]?.(before, result.value.resource);
      expect(result.value.resource).not.toBe(before);
    });
  }
});
