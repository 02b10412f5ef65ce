import { err, ok, type Result } from '../../errors/result.js';
import { scimError } from '../../errors/scim-error.js';
import type { MultiValuedChange } from '../../store/scim-store.js';
import { readTopLevel } from '../../store/unique-value.js';
import type { StoredVersions } from '../../json/stored-versions.js';

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
export function checkResourceSize(resource: Readonly<Record<string, unknown>>, limits: ResourceSizeLimits, revision?: SizeRevision): Result<void> {
  const measure = new SizeWalk(limits, revision === undefined ? undefined : revision.sizes.known(resource, revision, limits));
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

/**
 * A PATCH's element-level changes to the stored resource `before` (see `MultiValuedChange`): with
 * them an attribute's size is the stored one's (measured once per stored version, then remembered
 * in the server's `sizes`) plus the added elements minus the removed ones, so adding one member to
 * a large group does not walk the group.
 */
export interface SizeRevision {
  readonly before: Readonly<Record<string, unknown>>;
  readonly changes: readonly MultiValuedChange[];
  readonly sizes: ElementSizes;
}

/** What one array of elements weighs: its elements' JSON bytes, and the longest array inside them. */
interface ElementsSize {
  readonly bytes: number;
  readonly widest: number;
}

const UNLIMITED: ResourceSizeLimits = { maxValuesPerAttribute: Number.POSITIVE_INFINITY, maxResourceBytes: Number.POSITIVE_INFINITY };

function measureElements(values: readonly unknown[]): ElementsSize {
  const walk = new SizeWalk(UNLIMITED);
  for (const value of values) walk.value(value ?? null, '');
  return { bytes: walk.bytes, widest: walk.widest };
}

/**
 * The element sizes one server keeps (part of its `ServerCaches`): those of stored arrays
 * (registered in `versions`, so they never change: a size is valid for the array's lifetime), and
 * those a check worked out for arrays about to be stored, which {@link carry} moves to the arrays
 * the store made of them.
 */
export class ElementSizes {
  readonly #stored = new WeakMap<readonly unknown[], ElementsSize>();
  readonly #pending = new WeakMap<readonly unknown[], ElementsSize>();

  constructor(private readonly versions: StoredVersions) {}

  /**
   * The element sizes of the arrays of `resource` that `revision` says are the stored ones with
   * elements removed and added, worked out from the stored array's size; an array whose length does
   * not add up is left to the walk.
   */
  known(resource: Readonly<Record<string, unknown>>, revision: Pick<SizeRevision, 'before' | 'changes'>, limits: ResourceSizeLimits): Map<unknown, ElementsSize> {
    const known = new Map<unknown, ElementsSize>();
    for (const change of revision.changes) {
      const now = readTopLevel(resource, change.attribute);
      const stored = readTopLevel(revision.before, change.attribute) ?? [];
      if (!Array.isArray(now) || !Array.isArray(stored) || known.has(now)) continue;
      if (now.length !== stored.length - change.removed.length + change.added.length) continue;
      const base = this.#of(stored);
      // Only proven sizes are used: anything that may break a limit is walked, so the error is the walk's.
      if (base.widest > limits.maxValuesPerAttribute) continue;
      const added = measureElements(change.added);
      if (added.widest > limits.maxValuesPerAttribute) continue;
      const removed = measureElements(change.removed);
      const size = { bytes: base.bytes + added.bytes - removed.bytes, widest: Math.max(base.widest, added.widest) };
      known.set(now, size);
      this.#pending.set(now, size);
    }
    return known;
  }

  /**
   * After a write: the sizes worked out for `checked`'s changed arrays are those of the arrays the
   * store made of them in `written` (stored versions, same length), so the next PATCH of the same
   * resource starts from them.
   */
  carry(checked: Readonly<Record<string, unknown>>, written: Readonly<Record<string, unknown>>, changes: readonly MultiValuedChange[]): void {
    for (const change of changes) {
      const now = readTopLevel(checked, change.attribute);
      const stored = readTopLevel(written, change.attribute);
      if (!Array.isArray(now) || !Array.isArray(stored) || !this.versions.has(stored) || now.length !== stored.length) continue;
      const size = this.#pending.get(now);
      if (size !== undefined) this.#stored.set(stored, size);
    }
  }

  /** The size of `values`' elements: remembered when `values` is a stored version. */
  #of(values: readonly unknown[]): ElementsSize {
    const known = this.#stored.get(values);
    if (known !== undefined) return known;
    const size = measureElements(values);
    if (this.versions.has(values)) this.#stored.set(values, size);
    return size;
  }
}

/** Printable ASCII that JSON writes as is: one byte per character. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

class SizeWalk {
  bytes = 0;
  /** The longest array walked. */
  widest = 0;
  crowded: { path: string; count: number } | undefined;

  constructor(
    private readonly limits: ResourceSizeLimits,
    private readonly known?: ReadonlyMap<unknown, ElementsSize>,
  ) {}

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
    this.widest = Math.max(this.widest, values.length);
    this.bytes += 2 + Math.max(0, values.length - 1);
    const known = this.known?.get(values);
    if (known !== undefined) {
      this.bytes += known.bytes;
      this.widest = Math.max(this.widest, known.widest);
      return;
    }
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
