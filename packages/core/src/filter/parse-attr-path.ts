import { err, ok, type Result } from '../errors/result.js';
import { scimError } from '../errors/scim-error.js';
import type { AttrPath } from './ast.js';
import { isAttrPath, splitAttrPath } from './attr-path-syntax.js';

/** Longest accepted `sortBy`, `attributes` or `excludedAttributes` value, in characters. */
const MAX_LIST_LENGTH = 10_000;

/**
 * Parses one attribute path, `[URI ":"] ATTRNAME ["." subAttr]` (RFC 7644 §3.4.2.2, §3.10), as
 * `sortBy` carries it. Surrounding whitespace is ignored. Unknown names are fine here: resolving them
 * is the schema's job. Never throws: anything else is a 400 `invalidPath`.
 */
export function parseAttrPath(text: string): Result<AttrPath> {
  if (typeof text !== 'string') return err(scimError('invalidPath', 'Invalid attribute path: it must be a string'));
  if (text.length > MAX_LIST_LENGTH) {
    return err(scimError('invalidPath', `Invalid attribute path: it is ${text.length} characters long; the limit is ${MAX_LIST_LENGTH}`));
  }
  const trimmed = text.trim();
  if (!isAttrPath(trimmed)) return err(scimError('invalidPath', `Invalid attribute path ${quote(trimmed)}: ${expectation}`));
  return ok(splitAttrPath(trimmed));
}

/**
 * Parses a comma-separated list of attribute paths, as `attributes` and `excludedAttributes` carry it
 * (RFC 7644 §3.4.2.5, §3.9). Whitespace around names and empty entries are tolerated. Never throws: an
 * entry that is not an attribute path is a 400 `invalidPath` naming it.
 */
export function parseAttrPathList(text: string): Result<AttrPath[]> {
  if (typeof text !== 'string') return err(scimError('invalidPath', 'Invalid attribute list: it must be a string'));
  if (text.length > MAX_LIST_LENGTH) {
    return err(scimError('invalidPath', `Invalid attribute list: it is ${text.length} characters long; the limit is ${MAX_LIST_LENGTH}`));
  }
  const paths: AttrPath[] = [];
  for (const entry of text.split(',')) {
    const name = entry.trim();
    if (name === '') continue;
    if (!isAttrPath(name)) return err(scimError('invalidPath', `Invalid attribute list: ${quote(name)} is not an attribute path; ${expectation}`));
    paths.push(splitAttrPath(name));
  }
  return ok(paths);
}

const expectation = "expected an attribute name such as 'userName', 'name.givenName' or a schema URN followed by ':' and a name";

function quote(text: string): string {
  return JSON.stringify(text.length > 100 ? `${text.slice(0, 100)}…` : text);
}
