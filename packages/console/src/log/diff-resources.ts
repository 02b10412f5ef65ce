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
  const { before, after } = changedLeaves(change.before, change.after);
  const state: DiffState = { redactor, diff: [], truncated: false };
  // Every path of `before`, then those only `after` has (no union set built).
  let going = true;
  for (const [path, was] of before) if (!(going = compare(state, path, was, after.get(path)))) break;
  if (going) for (const [path, is] of after) if (!before.has(path) && !compare(state, path, undefined, is)) break;
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
  /** The top-level attribute the value belongs to (an extension's attributes are top-level too). */
  readonly attribute: string;
  readonly value: string;
  readonly raw: unknown;
}

/**
 * A resource as paths to leaf values: `name.givenName`, `emails[value eq "x@y"].primary` (elements
 * with a `value` are keyed by it, others by position), extension attributes under their URN.
 */
function flattenInto(leaves: Map<string, Leaf>, value: unknown, path: string, attribute: string, depth: number): void {
  if (leaves.size > 5000 || depth > 20) return;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      const key = item !== null && typeof item === 'object' && typeof (item as Record<string, unknown>)['value'] === 'string' ? `[value eq ${JSON.stringify((item as Record<string, unknown>)['value'])}]` : `[${index}]`;
      flattenInto(leaves, item, `${path}${key}`, attribute, depth + 1);
    }
    if (value.length === 0) leaves.set(path, { attribute, value: '[]', raw: value });
    return;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) flattenInto(leaves, item, childPath(path, key, depth), depth === 0 || isUrn(path, depth) ? key : attribute, depth + 1);
    return;
  }
  const text = JSON.stringify(value) ?? 'null';
  leaves.set(path, { attribute, value: text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : text, raw: value });
}

function isUrn(path: string, depth: number): boolean {
  return depth === 1 && path.toLowerCase().startsWith('urn:');
}

function childPath(path: string, key: string, depth: number): string {
  if (depth === 0) return key;
  return `${path}${isUrn(path, depth) ? ':' : '.'}${key}`;
}

/**
 * The leaves of `before` and `after` that may differ. Objects are compared key by key and a value
 * the two share (a PATCH copies only what it writes) is skipped without being visited, so a change
 * costs what it changed, not the size of the resource.
 */
function changedLeaves(before: unknown, after: unknown): { before: Map<string, Leaf>; after: Map<string, Leaf> } {
  const leaves = { was: new Map<string, Leaf>(), is: new Map<string, Leaf>() };
  visit(leaves, before ?? {}, after ?? {}, '', '', 0);
  return { before: leaves.was, after: leaves.is };
}

function visit(leaves: { readonly was: Map<string, Leaf>; readonly is: Map<string, Leaf> }, b: unknown, a: unknown, path: string, attribute: string, depth: number): void {
  if (b === a) return;
  if (isPlainObject(b) && isPlainObject(a) && depth < 20) {
    for (const key in b) {
      if (depth === 0 && (key === 'meta' || key === 'schemas')) continue;
      if (b[key] !== a[key]) visit(leaves, b[key], a[key], childPath(path, key, depth), depth === 0 || isUrn(path, depth) ? key : attribute, depth + 1);
    }
    for (const key in a) {
      if (depth === 0 && (key === 'meta' || key === 'schemas')) continue;
      if (!Object.hasOwn(b, key)) visit(leaves, undefined, a[key], childPath(path, key, depth), depth === 0 || isUrn(path, depth) ? key : attribute, depth + 1);
    }
    return;
  }
  if (b !== undefined) flattenInto(leaves.was, b, path, attribute, depth);
  if (a !== undefined) flattenInto(leaves.is, a, path, attribute, depth);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
