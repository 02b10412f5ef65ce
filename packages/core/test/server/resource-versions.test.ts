import { describe, expect, it } from 'vitest';
import { nextCounterVersion } from '../../src/store/next-counter-version.js';
import { nextVersion } from '../../src/server/write/resource-meta.js';

// One counter rule for the core's writes (nextVersion) and a store's own step (ScimStore.assign,
// nextCounterVersion): a resource written by either path gets the same next version.
describe('resource versions', () => {
  it('starts at W/"1" and advances a counter the same way on both paths', () => {
    expect(nextVersion()).toBe('W/"1"');
    for (const version of ['W/"1"', 'W/"41"', 'W/"007"', 'W/"999999999999999"']) {
      expect(nextVersion(version)).toBe(nextCounterVersion(version));
    }
    expect(nextVersion('W/"41"')).toBe('W/"42"');
    expect(nextVersion('W/"999999999999999"')).toBe('W/"1000000000000000"');
  });

  it('starts a fresh, distinct sequence after a tag that is not a counter it writes, on both paths', () => {
    for (const version of ['W/"abc"', '"7"', 'W/"1234567890123456"', 'W/""']) {
      expect(nextCounterVersion(version)).toBeUndefined();
      const next = nextVersion(version);
      expect(next).toMatch(/^W\/"\d{13}"$/);
      expect(next).not.toBe(version);
      expect(nextCounterVersion(next)).toBeDefined();
    }
  });
});
