/**
 * @scimkit/cli: `scimkit check <base-url>` and its checks as a library (docs/check.md).
 *
 * @module @scimkit/cli
 */
export { runChecks, isLoopback, UnreachableServerError } from './run-checks.js';
export type { CheckOptions, CheckReport, ProgressEvent } from './run-checks.js';
export { ALL_CHECKS } from './checks/index.js';
export { TAGS, IDPS, CheckFailure, CheckNotApplicable } from './check.js';
export type { Check, CheckResult, CheckStatus, FailureDetail, ExchangeSummary, Tag, Idp } from './check.js';
export type { CheckContext, Fixtures, SendOptions } from './check-context.js';
export { main, USAGE } from './main.js';
export type { CliIo } from './main.js';
export { junitReport } from './report/junit-report.js';
export { terminalReport, progressPrinter } from './report/terminal-report.js';
