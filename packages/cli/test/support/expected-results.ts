/**
 * What `scimkit check` answers for each example server: the checks that fail (each a documented
 * deviation) and the ones that do not apply. Everything else passes.
 */
export interface ExpectedResults {
  readonly failing: readonly string[];
  readonly skipped: readonly string[];
}

/**
 * The seed service (examples/seed-service, service-spec.md): no Group endpoints, no Bulk, index
 * paging only; a 404 with `detail: ""` (service-spec.md; Okta's spec test wants a detail), and the
 * RFC answer, 400 noTarget, to Entra ID's replace of a value path that matches nothing
 * (`compatibility.createMissingValuePath` is off by default).
 */
export const SEED_SERVICE: ExpectedResults = {
  failing: ['users.okta-not-found-detail', 'patch.entra-create-missing-value-path'],
  skipped: [
    'groups.create',
    'groups.patch-add-member',
    'groups.patch-remove-member',
    'groups.user-groups',
    'groups.delete',
    'groups.entra-add-member',
    'groups.entra-remove-value-array',
    'groups.entra-lookup-excluding-members',
    'groups.okta-rename',
    'groups.okta-members',
    'groups.onelogin-members',
    'paging.cursor',
    'paging.cursor-invalid',
    'bulk.bulk-id',
    'bulk.fail-on-errors',
    'errors.unauthenticated',
  ],
};

/** The full reference server with a token: every check applies and passes. */
export const FULL_SERVER: ExpectedResults = { failing: [], skipped: [] };
