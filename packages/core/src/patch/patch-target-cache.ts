import type { Result } from '../errors/result.js';
import type { FilterLimits } from '../filter/filter-limits.js';
import type { ResourceModel } from '../schema/resource-model.js';
import type { PatchTarget } from './patch-target.js';

/**
 * Most path texts remembered per resource type. Paths are client text, so the cache is bounded:
 * when it is full it starts over (a client sending ever new paths only pays the resolution again).
 */
export const MAX_CACHED_TARGETS = 256;

/** The resolved targets of one resource type, valid for the path limits they were parsed under. */
interface TargetCache {
  limits: FilterLimits | undefined;
  readonly targets: Map<string, Result<PatchTarget>>;
}

/**
 * Successful resolutions of `path` texts, by resource type (models are immutable, so a resolution
 * never goes stale). Keyed on the model object: each server's models own their entries and take
 * them along when they are collected.
 */
const caches = new WeakMap<ResourceModel, TargetCache>();

/**
 * The cached resolution of `path` for `model`, if any. Entries hold only successful resolutions
 * (the same target whatever `unknownAttributes` says), made under these very `limits`: a cache
 * filled under other limits is dropped, so a path is never accepted under limits it breaks.
 */
export function cachedTarget(model: ResourceModel, path: string, limits: FilterLimits | undefined): Result<PatchTarget> | undefined {
  const cache = caches.get(model);
  if (cache === undefined) return undefined;
  if (cache.limits !== limits) {
    cache.limits = limits;
    cache.targets.clear();
    return undefined;
  }
  return cache.targets.get(path);
}

/** Remembers a successful resolution of `path` (see `cachedTarget`). */
export function rememberTarget(model: ResourceModel, path: string, limits: FilterLimits | undefined, target: Result<PatchTarget>): void {
  let cache = caches.get(model);
  if (cache === undefined) {
    cache = { limits, targets: new Map() };
    caches.set(model, cache);
  } else if (cache.limits !== limits) {
    cache.limits = limits;
    cache.targets.clear();
  }
  if (cache.targets.size >= MAX_CACHED_TARGETS) cache.targets.clear();
  cache.targets.set(path, target);
}
