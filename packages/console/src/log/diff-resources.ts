import type { ChangeEvent } from '@scimkit/core';
import { MASKED, REDACTED } from './redaction-options.js';
import type { Redactor, Treatment } from './redactor.js';
import type { DiffEntry, RecordedChange } from './request-log-record.js';

/** Most differences kept per changed resource. */
export const MAX_DIFF_ENTRIES = 100;
/** Longest value shown in a difference, in characters. */
const MAX_VALUE_CHARS = 300;

/**
 * A committed change as the log keeps it: the versions and the differences attribute by attribute
 * (`meta` aside), redacted: a secret's values are `[redacted]`, a personal attribute's follow the
 * policy (`***`, or no entry at all under `drop`).
 */
export function recordChange(change: ChangeEvent, redactor: Redactor): RecordedChange {
  const before = new Leaves();
  const after = new Leaves();
  visit(before, after, change.before ?? {}, change.after ?? {}, '', '', 0);
  const state: DiffState = { redactor, diff: [], truncated: false };
  // Every path of `before`, then those only `after` has (no union set built).
  let going = true;
  for (const was of before.list) if (!(going = compare(state, was.path, was, after.get(was.path)))) break;
  if (going) for (const is of after.list) if (!before.has(is.path) && !compare(state, is.path, undefined, is)) break;
  const { diff, truncated } = state;
  const recorded: { -readonly [K in keyof RecordedChange]: RecordedChange[K] } = { operation: change.operation, resourceType: change.resourceType, id: change.id, diff };
  const versionBefore = change.before?.meta?.version;
  const versionAfter = change.after?.meta?.version;
  if (typeof versionBefore === 'string') recorded.versionBefore = versionBefore;
  if (typeof versionAfter === 'string') recorded.versionAfter = versionAfter;
  if (truncated) recorded.diffTruncated = true;
  return recorded;
}

interface DiffState {
  readonly redactor: Redactor;
  readonly diff: DiffEntry[];
  truncated: boolean;
}

/** Add the difference at `path`, if any; false once the diff is full. */
function compare(state: DiffState, path: string, was: Leaf | undefined, is: Leaf | undefined): boolean {
  if (was?.value === is?.value) return true;
  const { redactor, diff } = state;
  const treatment = redactor.treatmentOf((was ?? is)?.attribute ?? path);
  if (treatment === 'personal' && redactor.policy === 'drop') {
    redactor.remember([was?.raw, is?.raw]);
    return true;
  }
  if (diff.length === MAX_DIFF_ENTRIES) {
    state.truncated = true;
    return false;
  }
  const entry: { path: string; before?: string; after?: string } = { path: treatment === 'plain' || (redactor.policy === 'keep' && treatment === 'personal') ? path : redactor.filterText(path, treatment) };
  const b = shownValue(redactor, treatment, was);
  const a = shownValue(redactor, treatment, is);
  if (b !== undefined) entry.before = b;
  if (a !== undefined) entry.after = a;
  diff.push(entry);
  return true;
}

/** A value as the diff shows it: `[redacted]` for a secret, `***` for a masked personal value. */
function shownValue(redactor: Redactor, treatment: Treatment, entry: Leaf | undefined): string | undefined {
  if (entry === undefined) return undefined;
  if (treatment === 'secret') {
    redactor.remember(entry.raw);
    return REDACTED;
  }
  if (treatment === 'personal' && redactor.policy === 'mask') {
    redactor.remember(entry.raw);
    return MASKED;
  }
  return entry.value;
}

interface Leaf {
  readonly path: string;
  /** The top-level attribute the value belongs to (an extension's attributes are top-level too). */
  readonly attribute: string;
  readonly value: string;
  readonly raw: unknown;
}

/**
 * A resource as paths to leaf values: `name.givenName`, `emails[value eq "x@y"].primary` (elements
 * with a `value` are keyed by it, others by position), extension attributes under their URN.
 */
function flattenInto(leaves: Leaves, value: unknown, path: string, attribute: string, depth: number): void {
  if (leaves.size > 5000 || depth > 20) return;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      const key = item !== null && typeof item === 'object' && typeof (item as Record<string, unknown>)['value'] === 'string' ? `[value eq ${JSON.stringify((item as Record<string, unknown>)['value'])}]` : `[${index}]`;
      flattenInto(leaves, item, `${path}${key}`, attribute, depth + 1);
    }
    if (value.length === 0) leaves.set({ path, attribute, value: '[]', raw: value });
    return;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) flattenInto(leaves, item, childPath(path, key, depth), depth === 0 || isUrn(path, depth) ? key : attribute, depth + 1);
    return;
  }
  const text = JSON.stringify(value) ?? 'null';
  leaves.set({ path, attribute, value: text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : text, raw: value });
}

/** Most leaves a `Leaves` searches one by one; beyond, it keeps an index. */
const UNINDEXED_LEAVES = 16;

/**
 * Leaves by path, in the order their paths were first set, a later leaf at a path replacing the
 * earlier in place (a `Map`'s order and semantics): a list searched one by one while short, as a
 * change usually is (a PATCH replaces a value or two), indexed beyond. Cheaper than a `Map` to make
 * for every change recorded.
 */
class Leaves {
  readonly list: Leaf[] = [];
  private index: Map<string, number> | undefined;

  get size(): number {
    return this.list.length;
  }

  set(leaf: Leaf): void {
    const at = this.find(leaf.path);
    if (at >= 0) {
      this.list[at] = leaf;
      return;
    }
    this.index?.set(leaf.path, this.list.length);
    this.list.push(leaf);
    if (this.index === undefined && this.list.length > UNINDEXED_LEAVES) {
      const index = new Map<string, number>();
      for (let i = 0; i < this.list.length; i++) index.set((this.list[i] as Leaf).path, i);
      this.index = index;
    }
  }

  get(path: string): Leaf | undefined {
    const at = this.find(path);
    return at < 0 ? undefined : this.list[at];
  }

  has(path: string): boolean {
    return this.find(path) >= 0;
  }

  private find(path: string): number {
    if (this.index !== undefined) return this.index.get(path) ?? -1;
    const { list } = this;
    for (let i = 0; i < list.length; i++) if ((list[i] as Leaf).path === path) return i;
    return -1;
  }
}

function isUrn(path: string, depth: number): boolean {
  return depth === 1 && path.toLowerCase().startsWith('urn:');
}

function childPath(path: string, key: string, depth: number): string {
  if (depth === 0) return key;
  return `${path}${isUrn(path, depth) ? ':' : '.'}${key}`;
}

/**
 * Collect the leaves of `b` (into `was`) and `a` (into `is`) that may differ. Objects are compared
 * key by key and a value the two share (a PATCH copies only what it writes) is skipped without
 * being visited, so a change costs what it changed, not the size of the resource.
 */
function visit(was: Leaves, is: Leaves, b: unknown, a: unknown, path: string, attribute: string, depth: number): void {
  if (b === a) return;
  if (isPlainObject(b) && isPlainObject(a) && depth < 20) {
    for (const key in b) {
      if (depth === 0 && (key === 'meta' || key === 'schemas')) continue;
      if (b[key] !== a[key]) visit(was, is, b[key], a[key], childPath(path, key, depth), depth === 0 || isUrn(path, depth) ? key : attribute, depth + 1);
    }
    for (const key in a) {
      if (depth === 0 && (key === 'meta' || key === 'schemas')) continue;
      if (!Object.hasOwn(b, key)) visit(was, is, undefined, a[key], childPath(path, key, depth), depth === 0 || isUrn(path, depth) ? key : attribute, depth + 1);
    }
    return;
  }
  if (b !== undefined) flattenInto(was, b, path, attribute, depth);
  if (a !== undefined) flattenInto(is, a, path, attribute, depth);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
