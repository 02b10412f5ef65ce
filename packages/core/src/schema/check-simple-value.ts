import type { Result } from '../errors/result.js';
import { err, ok } from '../errors/result.js';
import { scimError } from '../errors/scim-error.js';
import type { AttributeDefinition } from './attribute-definition.js';
import { isBase64 } from './is-base64.js';
import { isDateTime } from './is-date-time.js';

const EXPECTED: Record<AttributeDefinition['type'], string> = {
  string: 'a string',
  boolean: 'a boolean',
  integer: 'an integer',
  decimal: 'a number',
  dateTime: 'an xsd:dateTime string such as 2008-01-23T04:56:22Z',
  binary: 'a base64-encoded string',
  reference: 'a reference (a string)',
  complex: 'a JSON object',
};

/**
 * Check one value of a simple (non-complex) attribute against its RFC 7643 §2.3 data type and return
 * it in canonical form (a string boolean becomes a boolean when `stringBooleans` is on).
 */
export function checkSimpleValue(attribute: AttributeDefinition, value: unknown, path: string, stringBooleans: boolean): Result<unknown> {
  switch (attribute.type) {
    case 'string':
    case 'reference': // RFC 7643 §2.3.7: a reference is a URI string
      if (typeof value === 'string') return ok(value);
      break;
    case 'boolean': // RFC 7643 §2.3.2
      if (typeof value === 'boolean') return ok(value);
      if (stringBooleans && typeof value === 'string') {
        const lower = value.toLowerCase();
        if (lower === 'true' || lower === 'false') return ok(lower === 'true');
      }
      break;
    case 'integer': // RFC 7643 §2.3.4: no fractional part
      if (typeof value === 'number' && Number.isInteger(value)) return ok(value);
      break;
    case 'decimal': // RFC 7643 §2.3.3
      if (typeof value === 'number' && Number.isFinite(value)) return ok(value);
      break;
    case 'dateTime': // RFC 7643 §2.3.5
      if (typeof value === 'string' && isDateTime(value)) return ok(value);
      break;
    case 'binary': // RFC 7643 §2.3.6
      if (typeof value === 'string' && isBase64(value)) return ok(value);
      break;
    case 'complex':
      break;
  }
  return err(scimError('invalidValue', `Attribute '${path}' must be ${EXPECTED[attribute.type]}`));
}
