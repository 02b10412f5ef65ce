import { err, ok, type Result } from '../../errors/result.js';
import { scimError } from '../../errors/scim-error.js';

/** The two resource-size limits (see `ScimServerLimits`). */
export interface ResourceSizeLimits {
  readonly maxValuesPerAttribute: number;
  readonly maxResourceBytes: number;
}

/**
 * Refuses a resource about to be stored (create, replace, patch) that holds more values in one
 * multi-valued attribute than `maxValuesPerAttribute`, or whose JSON is longer than
 * `maxResourceBytes` UTF-8 bytes: 400 invalidValue naming the attribute and the limit. Without
 * them one resource could grow until every request that reads it takes seconds (RFC 7644 §3.12
 * has no type for a server limit on resources: the value is not acceptable to the operation).
 *
 * One walk, no serialization: the byte count is exact (JSON escapes included) and the walk stops
 * as soon as a limit is exceeded.
 */
export function checkResourceSize(resource: Readonly<Record<string, unknown>>, limits: ResourceSizeLimits): Result<void> {
  const measure = new SizeWalk(limits);
  measure.value(resource, '');
  if (measure.crowded !== undefined) {
    const { path, count } = measure.crowded;
    return err(scimError('invalidValue', `'${path}' would hold ${count} values; the limit is ${limits.maxValuesPerAttribute} (limits.maxValuesPerAttribute)`));
  }
  if (measure.bytes > limits.maxResourceBytes) {
    return err(scimError('invalidValue', `The resource would be larger than ${limits.maxResourceBytes} bytes of JSON (limits.maxResourceBytes)`));
  }
  return ok(undefined);
}

/** Printable ASCII that JSON writes as is: one byte per character. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

class SizeWalk {
  bytes = 0;
  crowded: { path: string; count: number } | undefined;

  constructor(private readonly limits: ResourceSizeLimits) {}

  private get done(): boolean {
    return this.crowded !== undefined || this.bytes > this.limits.maxResourceBytes;
  }

  value(value: unknown, path: string): void {
    if (this.done) return;
    if (typeof value === 'string') this.bytes += stringBytes(value);
    else if (typeof value === 'number') this.bytes += Number.isFinite(value) ? String(value).length : 4;
    else if (typeof value === 'boolean') this.bytes += value ? 4 : 5;
    else if (value === null) this.bytes += 4;
    else if (Array.isArray(value)) this.array(value, path);
    else if (typeof value === 'object') this.object(value as Record<string, unknown>, path);
  }

  private array(values: readonly unknown[], path: string): void {
    if (values.length > this.limits.maxValuesPerAttribute) {
      this.crowded = { path, count: values.length };
      return;
    }
    this.bytes += 2 + Math.max(0, values.length - 1);
    for (let i = 0; i < values.length && !this.done; i++) this.value(values[i] ?? null, path);
  }

  private object(object: Record<string, unknown>, path: string): void {
    this.bytes += 2;
    let members = 0;
    for (const key of Object.keys(object)) {
      const member = object[key];
      if (member === undefined || typeof member === 'function') continue;
      if (members++ > 0) this.bytes += 1;
      this.bytes += stringBytes(key) + 1;
      this.value(member, path === '' ? key : `${path}.${key}`);
      if (this.done) return;
    }
  }
}

/** UTF-8 bytes of `text` as a JSON string, quotes and escapes included. */
function stringBytes(text: string): number {
  if (PLAIN.test(text)) return text.length + 2;
  let bytes = 2;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22 || code === 0x5c) bytes += 2;
    else if (code < 0x20) bytes += code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d ? 2 : 6;
    else if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    // A surrogate pair is four bytes, two per half.
    else if (code >= 0xd800 && code <= 0xdfff) bytes += 2;
    else bytes += 3;
  }
  return bytes;
}
