/** What every page knows: where the console is, which tenant is shown, who looks. */
export interface PageContext {
  /** The console's mount path, prefix of every link (`/console`). */
  readonly base: string;
  readonly title: string;
  /** The tenant shown (`''`: the default tenant). */
  readonly tenant: string;
  readonly tenants: readonly string[];
  /** Who is logged in, for the header (undefined: the application's own authorization). */
  readonly who?: string;
  /** The CSRF token forms that change something carry. */
  readonly csrf: string;
  /** Whether actions are enabled. */
  readonly actions: boolean;
  /** Whether users and groups can be browsed (the console was given the SCIM server). */
  readonly directory: boolean;
  /** Whether webhook deliveries can be shown (the console was given `deliveries`). */
  readonly webhooks: boolean;
  /** Whether a login form is in use (a logout button is shown). */
  readonly login: boolean;
}

export function tenantLabel(tenant: string): string {
  return tenant === '' ? '(default tenant)' : tenant;
}
