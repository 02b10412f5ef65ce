/** What the request log keeps of personal data and which names hold secrets (docs/concepts/console.md). */
export interface RedactionOptions {
  /**
   * Personal attributes, by name (top-level or dotted, any case, URN prefix allowed). Default
   * `DEFAULT_PERSONAL_FIELDS`.
   */
  readonly personalFields?: readonly string[];
  /**
   * What happens to their values in bodies, filters, resource diffs and the record's `userName`:
   * `keep` (default), `mask` (every string replaced by `***`, the shape kept) or `drop` (removed).
   */
  readonly personalData?: 'keep' | 'mask' | 'drop';
  /**
   * More attribute or header names whose values are secrets, besides the built-in ones (passwords,
   * tokens, secrets, credentials, API keys, cookies, Authorization). Secrets are never kept.
   */
  readonly secretFields?: readonly string[];
}

/** The personal attributes of the RFC 7643 §4.1 User schema. */
export const DEFAULT_PERSONAL_FIELDS: readonly string[] = Object.freeze([
  'userName',
  'name',
  'displayName',
  'nickName',
  'emails',
  'phoneNumbers',
  'addresses',
  'photos',
  'ims',
  'x509Certificates',
]);

/** Names whose value is a secret, whatever the configuration: any attribute or header matching this. */
export const SECRET_NAME = /pass(word|wd|phrase)?$|^pwd$|secret|token|credential|api[-_]?key|private[-_]?key|authorization|cookie|session/i;

/** What replaces a secret or a masked value. */
export const REDACTED = '[redacted]';
export const MASKED = '***';
