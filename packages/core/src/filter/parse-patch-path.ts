import { err, ok, type Result } from '../errors/result.js';
import { scimError } from '../errors/scim-error.js';
import type { PatchPath } from './ast.js';
import { checkFilterLimits, type FilterLimits } from './filter-limits.js';
import { syntaxPatchPath } from './filter-parser.js';

/**
 * Parses a PATCH operation's `path` (RFC 7644 §3.5.2, Figure 5): `attrPath`, `valuePath` or
 * `valuePath.subAttr`, e.g. `members[value eq "2819c223"]`, `emails[type eq "work"].value`,
 * `urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value`. Never throws: a
 * malformed path is a 400 `invalidPath` naming the 0-based position and what was expected.
 */
export function parsePatchPath(text: string, limits?: FilterLimits): Result<PatchPath> {
  if (typeof text !== 'string') return err(scimError('invalidPath', 'Invalid path: the path must be a string'));
  const limit = checkFilterLimits(text, limits);
  if (limit !== undefined) return err(scimError('invalidPath', `Invalid path at position ${limit.offset}: ${limit.message}`));
  if (text.trim() === '') return err(scimError('invalidPath', 'Invalid path: the path is empty'));
  const parsed = syntaxPatchPath(text);
  if (!parsed.ok) {
    return err(scimError('invalidPath', `Invalid path at position ${parsed.problem.offset}: ${parsed.problem.message}`));
  }
  return ok(parsed.value);
}
