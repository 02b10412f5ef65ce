import { describe, expect, it } from 'vitest';
import { StoredVersions } from '../../../src/json/stored-versions.js';
import { MemberDigests } from '../../../src/server/membership/member-digest.js';

describe('MemberDigests', () => {
  const versions = new StoredVersions();
  const digests = new MemberDigests(versions);
  const memberDigest = (members: readonly unknown[], typeName: string, groupName: string) => digests.of(members, typeName, groupName);
  const members = [
    { value: 'u1', type: 'User' },
    { value: 'g1', type: 'Group' },
    { Value: 'u2', TYPE: 'user' },
    { value: 'x1' },
    { value: 'r1', type: 'Robot' },
    { display: 'no value' },
  ];

  it('reads the members of the type, the groups it may nest, and whether every counted member was typed', () => {
    expect(memberDigest(members, 'User', 'Group')).toEqual({ ids: ['u1', 'u2', 'x1'], groups: ['g1', 'x1'], typed: false });
    expect(memberDigest(members.slice(0, 3), 'User', 'Group')).toEqual({ ids: ['u1', 'u2'], groups: ['g1'], typed: true });
  });

  it('remembers the digest of a registered stored version, per pair of type names, and reads any other array (frozen or not) each time', () => {
    const unregistered = Object.freeze(members.map((member) => Object.freeze({ ...member })));
    expect(memberDigest(unregistered, 'User', 'Group')).not.toBe(memberDigest(unregistered, 'User', 'Group'));
    const frozen = Object.freeze(members.map((member) => Object.freeze({ ...member })));
    versions.register({ members: frozen });
    const first = memberDigest(frozen, 'User', 'Group');
    expect(memberDigest(frozen, 'User', 'Group')).toBe(first);
    expect(memberDigest(frozen, 'Robot', 'Group')).toEqual({ ids: ['x1', 'r1'], groups: ['g1', 'x1'], typed: false });
    const plain = members.map((member) => ({ ...member }));
    const once = memberDigest(plain, 'User', 'Group');
    plain.push({ value: 'u3', type: 'User' });
    expect(memberDigest(plain, 'User', 'Group')).not.toBe(once);
    expect(memberDigest(plain, 'User', 'Group').ids).toContain('u3');
  });
});
