import type { ScimExchange } from '@scimkit/client';
import type { CheckContext } from './check-context.js';

/** The groups `--tag` selects. */
export const TAGS = ['discovery', 'users', 'groups', 'filters', 'patch', 'etags', 'paging', 'bulk', 'errors', 'attributes', 'cleanup'] as const;
export type Tag = (typeof TAGS)[number];

/** The identity providers whose requests some checks imitate. */
export const IDPS = ['entra', 'okta', 'onelogin', 'google'] as const;
export type Idp = (typeof IDPS)[number];

/** One check: a request or a short sequence of them, and what the answer must be. */
export interface Check {
  /** Unique, `tag.name`. */
  readonly id: string;
  readonly tag: Tag;
  readonly title: string;
  /** The RFC section the expected answer comes from, or the client whose requests it imitates. */
  readonly reference: string;
  /** Set when the check sends what that identity provider sends. */
  readonly idp?: Idp;
  /** Creates, changes or deletes resources: needs `--allow-writes` against anything but localhost. */
  readonly writes: boolean;
  /** Why the check does not apply to this server (from its discovery documents), or undefined. */
  readonly applies?: (ctx: CheckContext) => string | undefined;
  run(ctx: CheckContext): Promise<void>;
}

/** A request and its answer, as reports show them (the Authorization header redacted). */
export interface ExchangeSummary {
  readonly method: string;
  readonly url: string;
  readonly requestHeaders: Readonly<Record<string, string>>;
  readonly requestBody?: string;
  readonly status: number;
  readonly responseHeaders: Readonly<Record<string, string>>;
  readonly responseBody: string;
}

/** Why a check failed. */
export interface FailureDetail {
  readonly message: string;
  /** What the answer should have been. */
  readonly expected: string;
  /** The exchange that showed the failure. */
  readonly exchange?: ExchangeSummary;
  /** For a scimkit server: the option that changes this behaviour. */
  readonly scimkitOption?: string;
}

export type CheckStatus = 'pass' | 'fail' | 'skip';

export interface CheckResult {
  readonly id: string;
  readonly tag: Tag;
  readonly title: string;
  readonly reference: string;
  readonly idp?: Idp;
  readonly status: CheckStatus;
  /** For `skip`: why the check did not apply. */
  readonly reason?: string;
  readonly failure?: FailureDetail;
  readonly durationMs: number;
}

/** Thrown by a check: the failure with what was sent, what came back and what was expected. */
export class CheckFailure extends Error {
  constructor(
    message: string,
    readonly expected: string,
    readonly exchange?: ScimExchange,
    readonly scimkitOption?: string,
  ) {
    super(message);
  }
}

/** Thrown by a check that finds, while running, that it does not apply (a schema without the attribute it needs). */
export class CheckNotApplicable extends Error {}
