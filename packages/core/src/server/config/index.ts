export { COMPATIBILITY_PROFILES } from './compatibility-profiles.js';
export { resolveCompatibility } from './resolve-compatibility.js';
