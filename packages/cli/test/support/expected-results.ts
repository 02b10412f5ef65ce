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
 * The seed service (examples/seed-service, service-spec.md): no Group endpoints, no Bulk, index
 * paging only; a 404 with `detail: ""` (service-spec.md; Okta's spec test wants a detail), and the
 * RFC answer, 400 noTarget, to Entra ID's replace of a value path that matches nothing
 * (`compatibility.createMissingValuePath` is off by default).
 */
export const SEED_SERVICE: ExpectedResults = data['seed-service']!;

/** The full reference server with a token: every check applies and passes. */
export const FULL_SERVER: ExpectedResults = data['full-server']!;
