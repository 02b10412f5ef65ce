import type { RecordedRequest } from '@scimkit/core';
import type { Hint } from './request-log-record.js';

/**
 * The hint for a refused request, when the library knows what would accept it
 * (docs/concepts/compatibility.md): a compatibility option that is off on this server and whose
 * shape the request has, or the `unknownAttributes` setting for an attribute no schema declares.
 */
export function hintFor(recorded: RecordedRequest, body: unknown, scimType: string | undefined, detail: string | undefined): Hint | undefined {
  const { status } = recorded.response;
  if (status < 400) return undefined;
  const compatibility = recorded.compatibility;
  const method = recorded.request.method.toUpperCase();
  const operations = method === 'PATCH' ? operationsOf(body) : undefined;
  const query = recorded.request.query ?? {};

  if (operations !== undefined && status === 400) {
    if (scimType === 'noTarget' && !compatibility.createMissingValuePath && operations.some((op) => opName(op) === 'replace' && typeof op['path'] === 'string' && op['path'].includes('['))) {
      return entra('createMissingValuePath', 'PATCH "replace" on a value path that matches nothing (Entra ID sends it for a missing work email or phone): createMissingValuePath creates the value, as "add" does.');
    }
    if (operations.length === 0 && !compatibility.allowEmptyOperations) {
      return entra('allowEmptyOperations', 'A PATCH with no operations (the Microsoft SCIM validator sends it): allowEmptyOperations answers it as a no-op.');
    }
    if (!compatibility.removeValueArray && operations.some((op) => opName(op) === 'remove' && Array.isArray(op['value']))) {
      return both('removeValueArray', 'PATCH "remove" with a value array (Entra ID and Okta remove group members this way): removeValueArray removes those values.');
    }
    if (!compatibility.pathKeysInValue && operations.some((op) => op['path'] === undefined && isObject(op['value']) && Object.keys(op['value']).some((key) => key.includes('.') || key.toLowerCase().startsWith('urn:')))) {
      return both('pathKeysInValue', 'A path-less PATCH whose value keys are attribute paths (Entra ID): pathKeysInValue reads them as paths.');
    }
  }
  if (status === 400 && !compatibility.stringBooleans && hasStringBoolean(body)) {
    return both('stringBooleans', 'A boolean sent as the string "True" or "False" (Entra ID): stringBooleans reads it as a boolean.');
  }
  if (status === 400 && scimType === 'invalidFilter' && !compatibility.unquotedFilterValues && typeof query['filter'] === 'string' && hasUnquotedValue(query['filter'])) {
    return entra('unquotedFilterValues', 'A filter with an unquoted string value (userName sw O, the Microsoft SCIM validator): unquotedFilterValues reads it as a string.');
  }
  if (status === 400 && scimType === 'invalidPath' && !compatibility.valueFilterInAttributes && ['attributes', 'excludedAttributes'].some((name) => String(query[name] ?? '').includes('['))) {
    return entra('valueFilterInAttributes', 'A value filter in attributes/excludedAttributes (the Microsoft SCIM validator): valueFilterInAttributes reads it as the attribute it filters.');
  }
  if (status === 404 && !compatibility.serviceConfigurationPath && /^\/serviceConfiguration\/?$/i.test(recorded.path)) {
    return entra('serviceConfigurationPath', 'GET /serviceConfiguration, the pre-RFC name of /ServiceProviderConfig (the Microsoft SCIM validator): serviceConfigurationPath serves it there too.');
  }
  if (status === 400 && recorded.unknownAttributes === 'reject' && detail !== undefined && /unknown attribute|not (?:defined|declared)|no (?:such )?attribute|is not an attribute/i.test(detail)) {
    return {
      option: 'unknownAttributes',
      message: 'The client sends an attribute no schema of this resource type declares: add it to a schema (or to your store\'s mapping), or set unknownAttributes: "ignore" to drop it.',
    };
  }
  return undefined;
}

function entra(option: string, message: string): Hint {
  return { option, profile: 'entra', message };
}

function both(option: string, message: string): Hint {
  return { option, profile: 'okta', message: `${message} The entra and okta profiles turn it on.` };
}

function operationsOf(body: unknown): Record<string, unknown>[] | undefined {
  if (!isObject(body)) return undefined;
  const key = Object.keys(body).find((k) => k.toLowerCase() === 'operations');
  const operations = key === undefined ? undefined : body[key];
  return Array.isArray(operations) ? operations.filter(isObject) : undefined;
}

function opName(op: Record<string, unknown>): string {
  return typeof op['op'] === 'string' ? op['op'].toLowerCase() : '';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function hasStringBoolean(value: unknown, depth = 0): boolean {
  if (depth > 20) return false;
  if (typeof value === 'string') return /^(true|false)$/i.test(value);
  if (Array.isArray(value)) return value.some((item) => hasStringBoolean(item, depth + 1));
  if (isObject(value)) return Object.values(value).some((item) => hasStringBoolean(item, depth + 1));
  return false;
}

/** A comparison whose value is neither quoted, nor a number, true, false or null (RFC 7644 §3.4.2.2). */
function hasUnquotedValue(filter: string): boolean {
  const comparison = /\b(?:eq|ne|co|sw|ew|gt|ge|lt|le)\s+([^\s()\]]+)/gi;
  for (const match of filter.matchAll(comparison)) {
    const value = match[1] ?? '';
    if (value.startsWith('"') || /^(true|false|null)$/i.test(value) || /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(value)) continue;
    return true;
  }
  return false;
}
