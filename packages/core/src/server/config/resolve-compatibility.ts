import type { CompatibilityConfig, CompatibilityOptions } from './scim-server-config.js';
import { COMPATIBILITY_PROFILES } from './compatibility-profiles.js';

/**
 * The tolerances a configuration asks for: the defaults, or the named profile, then every option
 * given explicitly on top. Throws a TypeError for an unknown profile (a programmer error at start-up).
 */
export function resolveCompatibility(config: CompatibilityConfig | undefined, defaults: Required<CompatibilityOptions>): Required<CompatibilityOptions> {
  if (config === undefined) return defaults;
  const { profile, ...options } = typeof config === 'string' ? { profile: config } : config;
  let base = defaults;
  if (profile !== undefined) {
    if (!Object.prototype.hasOwnProperty.call(COMPATIBILITY_PROFILES, profile)) {
      throw new TypeError(`createScimServer: unknown compatibility profile '${String(profile)}'; use 'entra', 'okta' or 'strict'`);
    }
    base = COMPATIBILITY_PROFILES[profile];
  }
  const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<CompatibilityOptions>;
  return { ...base, ...given };
}
