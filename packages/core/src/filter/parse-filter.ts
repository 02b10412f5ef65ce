import { err, ok, type Result } from '../errors/result.js';
import { scimError } from '../errors/scim-error.js';
import type { Filter } from './ast.js';
import { checkFilterLimits, type FilterOptions } from './filter-limits.js';
import { syntaxFilter } from './filter-parser.js';
import { quoteBareValues } from './quote-bare-values.js';

/**
 * Parses a SCIM filter (RFC 7644 §3.4.2.2, Figure 1) into its AST. Operators and keywords are
 * case-insensitive; attribute names keep the client's spelling. Never throws: a syntax error, or text
 * beyond `limits`, is a 400 `invalidFilter` whose detail names the 0-based position and what was
 * expected there. `options.unquotedValues` turns on the one syntax tolerance (bare comparison values).
 */
export function parseFilter(text: string, options?: FilterOptions): Result<Filter> {
  if (typeof text !== 'string') return err(scimError('invalidFilter', 'Invalid filter: the filter must be a string'));
  const limit = checkFilterLimits(text, options);
  if (limit !== undefined) return err(scimError('invalidFilter', `Invalid filter at position ${limit.offset}: ${limit.message}`));
  if (text.trim() === '') return err(scimError('invalidFilter', 'Invalid filter: the filter is empty'));
  const source = options?.unquotedValues === true ? quoteBareValues(text) : text;
  const parsed = syntaxFilter(source);
  if (!parsed.ok) {
    return err(scimError('invalidFilter', `Invalid filter at position ${parsed.problem.offset}: ${parsed.problem.message}`));
  }
  return ok(parsed.value);
}
