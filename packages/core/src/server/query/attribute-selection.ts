import { err, ok, type Result } from '../../errors/result.js';
import { scimError } from '../../errors/scim-error.js';
import type { AttrPath } from '../../filter/ast.js';
import { parseAttrPathList } from '../../filter/parse-attr-path.js';
import { queryParameter } from '../request/query-parameter.js';
import type { ScimRequest } from '../request/scim-request.js';

/** `attributes` / `excludedAttributes` (RFC 7644 §3.4.2.5, §3.9), parsed. */
export interface AttributeSelection {
  readonly attributes?: readonly AttrPath[];
  readonly excludedAttributes?: readonly AttrPath[];
}

/**
 * Parse the two parameters from raw values: a comma-separated string, or (in a POST `.search`
 * body) an array of strings. Both at once is 400 invalidSyntax; unknown names are kept and later
 * ignored by projection (RFC 7644 §3.4.2.5).
 */
export function parseAttributeSelection(attributes: unknown, excludedAttributes: unknown, valueFilters = false): Result<AttributeSelection> {
  const included = parseList('attributes', attributes, valueFilters);
  if (!included.ok) return included;
  const excluded = parseList('excludedAttributes', excludedAttributes, valueFilters);
  if (!excluded.ok) return excluded;
  if (included.value !== undefined && excluded.value !== undefined) {
    return err(scimError('invalidSyntax', 'attributes and excludedAttributes cannot be used together'));
  }
  return ok({
    ...(included.value === undefined ? {} : { attributes: included.value }),
    ...(excluded.value === undefined ? {} : { excludedAttributes: excluded.value }),
  });
}

/**
 * The selection a single-resource request carries in its query string; `valueFilters` is the
 * `valueFilterInAttributes` tolerance.
 */
export function selectionFromQuery(request: ScimRequest, valueFilters = false): Result<AttributeSelection> {
  return parseAttributeSelection(queryParameter(request, 'attributes', true), queryParameter(request, 'excludedAttributes', true), valueFilters);
}

function parseList(name: string, value: unknown, valueFilters: boolean): Result<readonly AttrPath[] | undefined> {
  if (value === undefined || value === null) return ok(undefined);
  let text: string;
  if (typeof value === 'string') text = value;
  else if (Array.isArray(value) && value.every((entry) => typeof entry === 'string')) text = value.join(',');
  else return err(scimError('invalidValue', `${name} must be a string or an array of strings`));
  if (text.trim() === '') return ok(undefined);
  const parsed = parseAttrPathList(valueFilters ? withoutValueFilters(text) : text);
  if (!parsed.ok) return parsed;
  return ok(parsed.value.length === 0 ? undefined : parsed.value);
}

/**
 * `emails[type eq "work"],userName` → `emails,userName` (compatibility.valueFilterInAttributes): each
 * bracketed value filter dropped, brackets inside quoted strings respected. An unclosed bracket keeps
 * the rest, so the parser still refuses it.
 */
function withoutValueFilters(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '[') {
      out += text[i];
      continue;
    }
    let j = i + 1;
    let quoted = false;
    for (; j < text.length; j++) {
      const c = text[j];
      if (quoted && c === '\\') j++;
      else if (c === '"') quoted = !quoted;
      else if (!quoted && c === ']') break;
    }
    if (j >= text.length) return out + text.slice(i);
    i = j;
  }
  return out;
}
