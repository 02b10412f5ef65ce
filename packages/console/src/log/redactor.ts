import { DEFAULT_PERSONAL_FIELDS, MASKED, REDACTED, SECRET_NAME, type RedactionOptions } from './redaction-options.js';

/** The forms of a redactor that removed nothing yet (shared: replaced, never added to). */
const NO_FORMS: string[] = [];

/** Shortest value scrubbed from free text: shorter ones would garble unrelated text. */
const MIN_SCRUBBED = 3;

/** How one attribute is treated. */
export type Treatment = 'secret' | 'personal' | 'plain';

/**
 * Redaction of one request's record. Walks JSON values (bodies, PATCH operations, resources),
 * replaces secrets by `[redacted]` and personal values per the policy, and remembers every value it
 * removed so that the same text is also scrubbed wherever it is echoed (an error `detail`, a path,
 * a filter).
 */
/** Redaction options resolved once per log: the sets of personal and secret attribute names. */
export interface RedactionPolicy {
  readonly policy: 'keep' | 'mask' | 'drop';
  /** How `userName` is treated (asked of every record). */
  readonly userName?: Treatment;
  readonly personal: ReadonlySet<string>;
  readonly secrets: ReadonlySet<string>;
  /**
   * Matches text that may name a configured secret field, or a personal field when the policy
   * removes personal values: text it does not match (and that has no secret-like name, see
   * `SECRET_NAME`) needs no redaction.
   */
  readonly mentions?: RegExp;
  /**
   * Attribute name → its treatment, filled as records are built (one per compiled policy, so per
   * log; bounded at 1,000 names, then started over). Valid for as long as the policy: a treatment
   * depends on the name and the policy's fixed sets alone.
   */
  readonly treatments?: Map<string, Treatment>;
}

export function compileRedaction(options: RedactionOptions = {}): RedactionPolicy {
  const policy: RedactionPolicy = {
    policy: options.personalData ?? 'keep',
    personal: new Set((options.personalFields ?? DEFAULT_PERSONAL_FIELDS).map((name) => attributeOf(name))),
    secrets: new Set((options.secretFields ?? []).map((name) => attributeOf(name))),
  };
  const names = [...policy.secrets, ...(policy.policy === 'keep' ? [] : policy.personal)].filter((name) => name !== '');
  const mentions = names.length === 0 ? undefined : new RegExp(names.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'i');
  return { ...policy, userName: new Redactor(policy).treatmentOf('userName'), treatments: new Map(), ...(mentions === undefined ? {} : { mentions }) };
}

export class Redactor {
  readonly policy: 'keep' | 'mask' | 'drop';
  private readonly personal: ReadonlySet<string>;
  private readonly secrets: ReadonlySet<string>;
  /** Values removed from this request, to scrub from free text. */
  private removed: Set<string> | undefined;
  /** Their forms as they may appear in text (raw, JSON-escaped, URL-encoded), longest first when scrubbing. */
  private forms: string[] = NO_FORMS;
  /** `removed` and `forms` are a {@link RemovedValues} shared with other records: copied before this one adds to them. */
  private shared: RemovedValues | undefined;
  /** The forms no other form occurs in (see `needlesOf`); `undefined`: not computed since `forms` changed. */
  private needles: readonly string[] | undefined;

  private readonly mentions: RegExp | undefined;
  private readonly treatments: Map<string, Treatment> | undefined;
  /** The forms of values removed lately, shared by the records of one log (see `RecordCaches`). */
  private readonly formCache: Map<string, readonly string[]>;

  constructor(policy: RedactionPolicy, formCache: Map<string, readonly string[]> = new Map()) {
    this.policy = policy.policy;
    this.personal = policy.personal;
    this.secrets = policy.secrets;
    this.mentions = policy.mentions;
    this.treatments = policy.treatments;
    this.formCache = formCache;
    this.userNameTreatment = policy.userName ?? this.treatmentOf('userName');
  }

  /** Whether `text` may name a configured secret field or a personal field the policy removes. */
  mayName(text: string): boolean {
    return this.mentions !== undefined && this.mentions.test(text);
  }

  /** `text` scrubbed of every removed value, when any was removed. */
  scrub(text: string): string {
    return this.forms.length === 0 ? text : this.text(text);
  }

  /** Every value of `entries` scrubbed, in place. */
  scrubEntries(entries: Record<string, string>): Record<string, string> {
    if (this.forms.length === 0) return entries;
    for (const key in entries) entries[key] = this.text(entries[key] as string);
    return entries;
  }

  /** How `userName` is treated. */
  readonly userNameTreatment: Treatment;

  /** Whether any value was removed (else free text needs no scrubbing). */
  get scrubs(): boolean {
    return this.forms.length > 0;
  }

  /** How an attribute (a key, a PATCH path, a filter's attribute) is treated. */
  treatmentOf(name: string): Treatment {
    const cache = this.treatments;
    if (cache === undefined) return this.treatmentOfAttribute(attributeOf(name));
    let treatment = cache.get(name);
    if (treatment === undefined) {
      treatment = this.treatmentOfAttribute(attributeOf(name));
      if (cache.size >= 1000) cache.clear();
      cache.set(name, treatment);
    }
    return treatment;
  }

  private treatmentOfAttribute(attribute: string): Treatment {
    if (SECRET_NAME.test(attribute) || this.secrets.has(attribute)) return 'secret';
    if (this.personal.has(attribute)) return 'personal';
    return 'plain';
  }

  /** The value a personal attribute keeps under the policy (`undefined`: dropped). */
  personalValue(value: unknown): unknown {
    if (this.policy === 'keep') return value;
    this.remember(value);
    return this.policy === 'mask' ? mask(value) : undefined;
  }

  /**
   * Start from values already removed and their forms (a client's credential, the same on every
   * request it sends): shared, not copied, until this record removes one more. Call it first.
   */
  adopt(values: RemovedValues): void {
    this.removed = values.removed as Set<string>;
    this.forms = values.forms as string[];
    this.needles = values.needles;
    this.shared = values;
  }

  /** The values `values` as removed (each of at least 3 characters) with their forms, to share (see `adopt`). */
  static removedValues(values: readonly string[], formCache: Map<string, readonly string[]>): RemovedValues {
    const redactor = new Redactor({ policy: 'keep', personal: new Set(), secrets: new Set() }, formCache);
    for (const value of values) redactor.remember(value);
    return { removed: redactor.removed ?? new Set(), forms: redactor.forms, needles: needlesOf(redactor.forms) };
  }

  /** Whether nothing was removed but the adopted values (text scrubbed of those alone is scrubbed of all). */
  onlyAdopted(values: RemovedValues): boolean {
    return this.shared === values;
  }

  /** Remember every string of a removed value, to scrub it from free text. */
  remember(value: unknown): void {
    if (typeof value === 'string') {
      if (value.length >= MIN_SCRUBBED && !(this.removed ??= new Set()).has(value)) {
        if (this.shared !== undefined) {
          this.removed = new Set(this.removed);
          this.forms = [...this.forms];
          this.shared = undefined;
        } else if (this.forms === NO_FORMS) this.forms = [];
        this.removed.add(value);
        for (const form of cachedForms(this.formCache, value)) this.forms.push(form);
        this.needles = undefined;
      }
    } else if (Array.isArray(value)) {
      for (const item of value) this.remember(item);
    } else if (value !== null && typeof value === 'object') {
      for (const item of Object.values(value)) this.remember(item);
    }
  }

  /** A JSON value redacted: secrets replaced, personal values per the policy, PATCH operations by their path. */
  json(value: unknown, depth = 0): unknown {
    if (depth > 64) return REDACTED;
    if (Array.isArray(value)) return value.map((item) => this.json(item, depth + 1));
    if (value === null || typeof value !== 'object') return value;
    const source = value as Record<string, unknown>;
    if (typeof source['op'] === 'string' && typeof source['path'] === 'string') return this.operation(source, depth);
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(source)) {
      const treatment = this.treatmentOf(key);
      if (treatment === 'secret') {
        this.remember(item);
        out[key] = REDACTED;
      } else if (treatment === 'personal' && this.policy !== 'keep') {
        const kept = this.personalValue(item);
        if (kept !== undefined) out[key] = kept;
      } else {
        out[key] = this.json(item, depth + 1);
      }
    }
    return out;
  }

  /** A PATCH operation (RFC 7644 §3.5.2): its value treated as the attribute its path names. */
  private operation(source: Record<string, unknown>, depth: number): unknown {
    const path = source['path'] as string;
    const treatment = this.treatmentOf(path);
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(source)) {
      if (key === 'path') out[key] = this.text(treatment === 'plain' ? path : this.filterText(path, treatment));
      else if (key !== 'value') out[key] = this.json(item, depth + 1);
      else if (treatment === 'secret') {
        this.remember(item);
        out[key] = REDACTED;
      } else if (treatment === 'personal' && this.policy !== 'keep') {
        const kept = this.personalValue(item);
        if (kept !== undefined) out[key] = kept;
      } else out[key] = this.json(item, depth + 1);
    }
    return out;
  }

  /**
   * A filter or path text (`userName eq "bjensen"`, `emails[value eq "x"]`): the quoted values of a
   * comparison on a secret, or on a personal attribute under `mask`/`drop`, become `***`.
   */
  filterText(text: string, treatment?: Treatment): string {
    return text.replace(/([A-Za-z0-9_$:.\-]+)(\s+(?:eq|ne|co|sw|ew|gt|ge|lt|le)\s+)("(?:[^"\\]|\\.)*"|[^\s()\]]+)/gi, (whole, attribute: string, op: string, value: string) => {
      const applies = treatment ?? this.treatmentOf(attribute.split('.')[0] ?? attribute);
      const own = this.treatmentOf(attribute);
      const effective = own !== 'plain' ? own : applies;
      if (effective === 'secret' || (effective === 'personal' && this.policy !== 'keep')) {
        this.remember(value.startsWith('"') ? unquote(value) : value);
        return `${attribute}${op}"${MASKED}"`;
      }
      return whole;
    });
  }

  /** Free text with every removed value scrubbed (raw, JSON-escaped and URL-encoded forms). */
  text(text: string): string {
    // Usually none occurs: searched for the forms no other form occurs in alone (a credential's
    // parts and their forms all hold its token: one search, not one per form).
    const needles = (this.needles ??= needlesOf(this.forms));
    let found = false;
    for (const needle of needles) {
      if (text.includes(needle)) {
        found = true;
        break;
      }
    }
    if (!found) return text;
    let out = text;
    for (const form of this.forms) if (out.includes(form)) out = out.split(form).join(MASKED);
    return out;
  }
}

/** Values removed and the forms they may take in text, computed once and shared by records (see `Redactor.adopt`). */
export interface RemovedValues {
  readonly removed: ReadonlySet<string>;
  readonly forms: readonly string[];
  /** The forms no other form occurs in (see `needlesOf`). */
  readonly needles: readonly string[];
}

/**
 * The forms in which no other (shorter) form occurs: a text holds some form only if it holds one of
 * these (each form holds itself or a shorter form, which holds one of these in turn).
 */
function needlesOf(forms: readonly string[]): readonly string[] {
  const needles: string[] = [];
  for (const form of forms) {
    let minimal = true;
    for (const other of forms) {
      if (other !== form && other.length < form.length && form.includes(other)) {
        minimal = false;
        break;
      }
    }
    if (minimal && !needles.includes(form)) needles.push(form);
  }
  return needles;
}

/** The forms of a removed value (a client's token repeats on every request: computed once per log, bounded). */
function cachedForms(cache: Map<string, readonly string[]>, value: string): readonly string[] {
  const known = cache.get(value);
  if (known !== undefined) return known;
  const forms = formsOf(value);
  if (cache.size >= 1000) cache.clear();
  cache.set(value, forms);
  return forms;
}

/** A value as it may appear in text: raw, JSON-escaped, URL-encoded. */
function formsOf(value: string): readonly string[] {
  const forms = [value];
  const escaped = JSON.stringify(value).slice(1, -1);
  if (escaped !== value) forms.push(escaped);
  const encoded = encodeURIComponent(value);
  if (encoded !== value) forms.push(encoded);
  return forms;
}

function unquote(value: string): string {
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'string' ? parsed : value;
  } catch {
    return value.slice(1, -1);
  }
}

/** A masked value: every string `***`, the shape kept. */
function mask(value: unknown): unknown {
  if (typeof value === 'string') return MASKED;
  if (Array.isArray(value)) return value.map(mask);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mask(v)]));
  return value;
}

/**
 * The attribute a key or path names, lower-cased: `urn:…:enterprise:2.0:User:manager.value` →
 * `manager`, `emails[type eq "work"].value` → `emails`, `name.givenName` → `name`.
 */
export function attributeOf(name: string): string {
  let text = name;
  const bracket = text.indexOf('[');
  if (bracket >= 0) text = text.slice(0, bracket);
  if (text.toLowerCase().startsWith('urn:')) text = text.slice(text.lastIndexOf(':') + 1);
  const dot = text.indexOf('.');
  if (dot >= 0) text = text.slice(0, dot);
  return text.trim().toLowerCase();
}
