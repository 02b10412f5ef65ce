import { describe, expect, it } from 'vitest';
import { isBase64, isDateTime } from '../../src/schema/index.js';

describe('isDateTime (RFC 7643 §2.3.5, xsd:dateTime)', () => {
  it.each([
    '2008-01-23T04:56:22Z',
    '2010-01-23T04:56:22.123Z',
    '2011-05-13T04:42:34+02:00',
    '2011-05-13T04:42:34-14:00',
    '2011-05-13T04:42:34', // xsd:dateTime allows no time zone
    '2024-02-29T00:00:00Z',
    '2000-02-29T23:59:59Z',
    '1999-12-31T24:00:00Z',
    '-0044-03-15T12:00:00Z',
    '12345-01-01T00:00:00Z',
  ])('accepts %s', (value) => {
    expect(isDateTime(value)).toBe(true);
  });

  it.each([
    '',
    '2008-01-23',
    '2008-01-23 04:56:22Z',
    '2008-01-23t04:56:22z',
    '2008-1-23T04:56:22Z',
    '2008-13-01T00:00:00Z',
    '2008-00-01T00:00:00Z',
    '2023-02-29T00:00:00Z',
    '1900-02-29T00:00:00Z',
    '2008-04-31T00:00:00Z',
    '2008-01-32T00:00:00Z',
    '2008-01-23T25:00:00Z',
    '2008-01-23T24:00:01Z',
    '2008-01-23T23:60:00Z',
    '2008-01-23T23:59:60Z',
    '2008-01-23T04:56:22+15:00',
    '2008-01-23T04:56:22+05:60',
    '2008-01-23T04:56:22.Z',
    '2008-01-23T04:56Z',
    'Wed, 23 Jan 2008 04:56:22 GMT',
    '0123-01-23T04:56:22ZZ',
  ])('rejects %j', (value) => {
    expect(isDateTime(value)).toBe(false);
  });
});

describe('isBase64 (RFC 7643 §2.3.6, RFC 4648 §4)', () => {
  it.each(['', 'TQ==', 'TWE=', 'TWFu', 'SGVsbG8sIFdvcmxkIQ==', 'ab+/'])('accepts %j', (value) => {
    expect(isBase64(value)).toBe(true);
  });
  it.each(['T', 'TQ', 'TQ=', 'T===', 'TW=u', 'ab-_', 'TWFu\n', 'TW Fu', 'é==='])('rejects %j', (value) => {
    expect(isBase64(value)).toBe(false);
  });
});
