/** Bounds on untrusted filter text, checked before the parser runs. */
export interface FilterLimits {
  /** Longest accepted text, in UTF-16 code units. Default 10,000. */
  readonly maxLength?: number;
  /** Deepest accepted nesting of parentheses and brackets. Default 50; at most 200 whatever is asked. */
  readonly maxDepth?: number;
}

/** What `parseFilter` accepts: the limits, and the compatibility options (all off by default). */
export interface FilterOptions extends FilterLimits {
  /**
   * Accept comparison values without quotes (`userName sw O`), as the Microsoft SCIM validator sends
   * them; RFC 7644 §3.4.2.2 requires JSON values, so this is off by default.
   */
  readonly unquotedValues?: boolean;
}

export const DEFAULT_FILTER_LIMITS: Required<FilterLimits> = Object.freeze({ maxLength: 10_000, maxDepth: 50 });

/** Nesting the recursive-descent parser handles well inside any reasonable call stack (it overflows near 600). */
const DEPTH_CEILING = 200;

function limit(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && value >= 0 ? value : fallback;
}

/** What broke a limit, with the 0-based offset where it happened. */
export interface LimitProblem {
  readonly offset: number;
  readonly message: string;
}

/**
 * Refuses text that is too long or nested too deep, in one linear pass that skips string literals,
 * so the recursive-descent parser never sees input that could exhaust the stack.
 */
export function checkFilterLimits(text: string, limits: FilterLimits | undefined): LimitProblem | undefined {
  const maxLength = limit(limits?.maxLength, DEFAULT_FILTER_LIMITS.maxLength);
  const maxDepth = Math.min(limit(limits?.maxDepth, DEFAULT_FILTER_LIMITS.maxDepth), DEPTH_CEILING);
  if (text.length > maxLength) {
    return { offset: maxLength, message: `the expression is ${text.length} characters long; the limit is ${maxLength}` };
  }
  // Nesting needs a '(' or '[' per level: text shorter than the limit, or without either, is within it.
  if (text.length <= maxDepth || (!text.includes('(') && !text.includes('['))) return undefined;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x28 /* ( */ || c === 0x5b /* [ */) {
      if (++depth > maxDepth) return { offset: i, message: `parentheses and brackets nest deeper than the limit of ${maxDepth}` };
    } else if (c === 0x29 /* ) */ || c === 0x5d /* ] */) {
      depth--;
    }
  }
  return undefined;
}
