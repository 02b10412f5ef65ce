import type { Result } from '../errors/result.js';
import type { FilterLimits } from '../filter/filter-limits.js';
import type { ResourceModel } from '../schema/resource-model.js';
import type { PatchTarget } from './patch-target.js';
import { memoOf, memoSlot } from '../schema/model-memo.js';

/**
 * Most path texts remembered per resource type. Paths are client text, so the cache is bounded:
 * when it is full it starts over (a client sending ever new paths only pays the resolution again).
 */
export const MAX_CACHED_TARGETS = 256;

/** Longest path text remembered: what the cache holds stays small whatever clients send. */
export const MAX_CACHED_PATH_LENGTH = 512;

/** The resolved targets of one resource type, valid for the path limits they were parsed under. */
interface TargetCache {
  maxLength: number | undefined;
  maxDepth: number | undefined;
  readonly targets: Map<string, Result<PatchTarget>>;
}

/**
 * Successful resolutions of `path` texts of one resource type, kept in its model's memo (models are
 * immutable, so a resolution never goes stale): each server's models own their entries and take
 * them along when they are collected.
 */
const TARGETS = memoSlot('patchTargets', (): TargetCache => ({ maxLength: undefined, maxDepth: undefined, targets: new Map() }));

function targetsOf(model: ResourceModel): TargetCache {
  return memoOf(model).get(TARGETS, model);
}

/**
 * The cached resolution of `path` for `model`, if any. Entries hold only successful resolutions
 * (the same target whatever `unknownAttributes` says), made under the same `limits`: entries
 * made under other limits are not used (and are dropped by the next one remembered), so a path is
 * never accepted under limits it breaks.
 */
export function cachedTarget(model: ResourceModel, path: string, limits: FilterLimits | undefined): Result<PatchTarget> | undefined {
  const cache = targetsOf(model);
  if (!madeUnder(cache, limits)) return undefined;
  return cache.targets.get(path);
}

/** Remembers a successful resolution of `path` (see `cachedTarget`). */
export function rememberTarget(model: ResourceModel, path: string, limits: FilterLimits | undefined, target: Result<PatchTarget>): void {
  if (path.length > MAX_CACHED_PATH_LENGTH) return;
  const cache = targetsOf(model);
  if (!madeUnder(cache, limits)) {
    cache.maxLength = limits?.maxLength;
    cache.maxDepth = limits?.maxDepth;
    cache.targets.clear();
  }
  if (cache.targets.size >= MAX_CACHED_TARGETS) cache.targets.clear();
  cache.targets.set(path, target);
}

/** Whether the cache's entries were parsed under `limits` (the same values). */
function madeUnder(cache: TargetCache, limits: FilterLimits | undefined): boolean {
  return cache.maxLength === limits?.maxLength && cache.maxDepth === limits?.maxDepth;
}
