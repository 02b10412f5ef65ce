import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../src/adapter/parse-query.js';

describe('parseQuery', () => {
  it('decodes names and values, gives a repeated name an array, ignores what is not a query', () => {
    expect(parseQuery('/Users?filter=userName%20eq%20%22a%22&count=5')).toEqual({ filter: 'userName eq "a"', count: '5' });
    expect(parseQuery('?attributes=a&attributes=b&attributes=c')).toEqual({ attributes: ['a', 'b', 'c'] });
    expect(parseQuery('/Users')).toEqual({});
    expect(parseQuery('/Users?a[b]=1&c.d=2')).toEqual({ 'a[b]': '1', 'c.d': '2' });
    expect(Object.getPrototypeOf(parseQuery('?__proto__=x'))).toBe(null);
  });

  it('is linear in repeats of one name (it runs before authentication)', () => {
    // 200,000 repeats (1.2 MB): copying the array per repeat is 2·10^10 element copies, minutes;
    // appending is a few tens of milliseconds. The bound is wide enough for a loaded machine.
    const target = `/Users?${'aa=1&'.repeat(200_000)}b=2`;
    const started = performance.now();
    const query = parseQuery(target);
    const elapsed = performance.now() - started;
    expect((query['aa'] as string[]).length).toBe(200_000);
    expect(query['b']).toBe('2');
    expect(elapsed).toBeLessThan(2_000);
  });
});
