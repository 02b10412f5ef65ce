export { comparisonKey, matchesKey, uniqueKey } from './comparison-key.js';
export { isUnassigned } from './is-unassigned.js';
export { jsonEqual, assignedEqual } from './json-equal.js';
export { isJsonObject, findKey, getKey, type JsonObject } from './json-object.js';
export { sameValue, sameElement } from './same-value.js';
export { findSubAttribute } from './sub-attribute.js';
