import { readFileSync } from 'node:fs';

/**
 * What `scimkit check` answers for each example server: the checks that fail (each a documented
 * deviation) and the ones that do not apply. Everything else passes. The data is
 * expected-results.json, shared with tests/check/check-examples.mjs (run by .ci/run).
 */
export interface ExpectedResults {
  readonly failing: readonly string[];
  readonly skipped: readonly string[];
}

const data = JSON.parse(readFileSync(new URL('./expected-results.json', import.meta.url), 'utf8')) as Record<string, ExpectedResults>;

/**
 * The seed service (examples/seed-service, as the service it implements asks): no Group endpoints,
 * no Bulk, index paging only; a 404 with `detail: ""` (docs/errors.md; Okta's spec test wants a
 * detail), and the RFC answer, 400 noTarget, to Entra ID's replace of a value path that matches
 * nothing (`compatibility.createMissingValuePath` is off by default).
 */
export const SEED_SERVICE: ExpectedResults = data['seed-service']!;

/** The full reference server with a token: every check applies and passes. */
export const FULL_SERVER: ExpectedResults = data['full-server']!;

/**
 * examples/own-tables (`npm run start:own-tables`, SQLite in memory) with a token: the app's own
 * `users` table keeps one email, the work one, in the same column as `userName` (as Entra ID maps
 * them), and no other. So what the checks send as a distinct work email, a home email, or a work
 * email different from the userName is not kept (the store ignores and logs it, `unmapped: 'ignore'`):
 * the OneLogin PUT (userName and email differ), the `emails[type eq "home"]` and `emails.value`
 * filters, PATCH add of a home email, replace of the work email's value (plain, Entra ID's
 * capitalised one, and Entra ID's create-missing one). Its /Schemas lists neither `nickName` nor
 * the enterprise `manager`, so the checks that need them do not apply.
 */
export const OWN_TABLES: ExpectedResults = data['own-tables']!;
