import type { StoreWriteResult } from '@scimkit/core';

/** A write the store refused because PostgreSQL cannot keep one of its values. */
export type Unkeepable = Extract<StoreWriteResult, { reason: 'invalidValue' }>;

/**
 * The SQLSTATEs of U+0000, which no PostgreSQL text or jsonb value can hold: 22P05
 * untranslatable_character (jsonb, "unsupported Unicode escape sequence": `\u0000 cannot be
 * converted to text`) and 22021 character_not_in_repertoire (a NUL byte in a text parameter). The
 * store needs a UTF-8 database (its indexes `normalize()` text), so no other character is refused.
 */
const UNKEEPABLE = new Set(['22P05', '22021']);

const REFUSED: Unkeepable = Object.freeze({
  ok: false,
  reason: 'invalidValue',
  detail: 'The resource holds U+0000 (NUL) in a string or an attribute name, which the PostgreSQL store cannot keep (jsonb)',
});

/** The `invalidValue` outcome for a driver error that says a value cannot be kept; undefined for any other error. */
export function unkeepableValue(error: unknown): Unkeepable | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && UNKEEPABLE.has(code) ? REFUSED : undefined;
}

/** Whether `text` holds U+0000, which no text or jsonb value in PostgreSQL can hold. */
export function holdsNul(text: string): boolean {
  return text.includes('\u0000');
}
