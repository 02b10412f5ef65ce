import type { AccessKind, AuthorizationEvent, AuthorizationResult } from '@scimkit/core';

/** The scopes that allow one kind of access; the first is named in a refusal (the narrowest). */
export interface ScopeRules {
  readonly read?: readonly string[];
  readonly write?: readonly string[];
  readonly bulk?: readonly string[];
}

export interface ScopePolicyOptions extends ScopeRules {
  /** Scopes that allow everything. Default `['scim']` (the IPSIE SCIM profile's scope). */
  readonly all?: readonly string[];
  /** Per resource type name (`Group`): its own read/write scopes, replacing the defaults for it (`all` still allows). */
  readonly resourceTypes?: Readonly<Record<string, ScopeRules>>;
  /** Refuse callers whose credential carries no scopes (static tokens). Default false: they may do everything. */
  readonly requireScopes?: boolean;
}

/**
 * The core's `authorize` hook for OAuth scopes: `read` (GET, `.search`) needs `scim:read`, `write`
 * (POST, PUT, PATCH, DELETE) `scim:write`, a Bulk request `scim:bulk` (then each operation its own),
 * `scim` everything; discovery endpoints need none. Per resource type where configured. A missing
 * scope is 403 `insufficient_scope` naming the narrowest scope that would do (RFC 6750 §3.1).
 */
export function scopePolicy(options: ScopePolicyOptions = {}): { authorize: (event: AuthorizationEvent) => AuthorizationResult } {
  const all = options.all ?? ['scim'];
  const defaults: Required<ScopeRules> = { read: options.read ?? ['scim:read'], write: options.write ?? ['scim:write'], bulk: options.bulk ?? ['scim:bulk'] };
  const types = new Map(Object.entries(options.resourceTypes ?? {}).map(([name, rules]) => [name.toLowerCase(), rules]));
  const accepted = (access: Exclude<AccessKind, 'discovery'>, resourceType: string | undefined): readonly string[] => {
    const own = resourceType === undefined ? undefined : types.get(resourceType.toLowerCase())?.[access];
    return [...(own ?? defaults[access]), ...all];
  };
  return {
    authorize: (event) => {
      if (event.access === 'discovery') return undefined;
      const needed = accepted(event.access, event.resourceType);
      if (event.scopes === undefined) return options.requireScopes === true ? { ok: false, scope: needed[0] ?? 'scim' } : undefined;
      const held = event.scopes;
      return needed.some((scope) => held.includes(scope)) ? undefined : { ok: false, scope: needed[0] ?? 'scim' };
    },
  };
}
