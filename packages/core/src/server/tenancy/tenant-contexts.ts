import type { ServerContext } from '../config/server-context.js';
import type { TenantConfig } from './tenancy-options.js';

/** Builds a tenant's context from the merged configuration (`createServerContext` sharing the server's parts). */
export type DeriveContext = (config: TenantConfig) => ServerContext;

/**
 * The resolved context of each tenant with its own configuration (`TenancyOptions.configure`), in a
 * bounded least-recently-used cache. Concurrent first requests of one tenant share one resolution;
 * a failed resolution is not kept, so the next request tries again.
 */
export class TenantContexts {
  private readonly entries = new Map<string, Promise<ServerContext>>();

  constructor(
    private readonly base: ServerContext,
    private readonly configure: (tenant: string) => TenantConfig | undefined | Promise<TenantConfig | undefined>,
    private readonly derive: DeriveContext,
    private readonly capacity: number,
  ) {}

  /** The context of `tenant`; rejects when `configure` fails or returns an invalid configuration. */
  get(tenant: string): Promise<ServerContext> {
    const cached = this.entries.get(tenant);
    if (cached !== undefined) {
      // Map order is insertion order: re-inserting marks the entry most recently used.
      this.entries.delete(tenant);
      this.entries.set(tenant, cached);
      return cached;
    }
    const resolving = this.resolve(tenant);
    this.entries.set(tenant, resolving);
    resolving.catch(() => {
      if (this.entries.get(tenant) === resolving) this.entries.delete(tenant);
    });
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    return resolving;
  }

  private async resolve(tenant: string): Promise<ServerContext> {
    const config = await this.configure(tenant);
    if (config === undefined) return this.base;
    if (config === null || typeof config !== 'object') throw new TypeError(`tenancy.configure('${tenant}') returned neither a configuration nor undefined`);
    return this.derive(config);
  }
}
