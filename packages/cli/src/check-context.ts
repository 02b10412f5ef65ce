import { SCIM_URN, type ScimClient, type ScimExchange, type ScimResource, type ScimResourceType, type ScimSchema, type ServiceProviderConfig } from '@scimkit/client';
import { CheckFailure } from './check.js';

/** A raw request: what a check sends exactly as written. */
export interface SendOptions {
  readonly body?: unknown;
  readonly query?: Readonly<Record<string, string | number | undefined>>;
  readonly headers?: Readonly<Record<string, string>>;
}

/** What the checks share during one run. */
export interface CheckContext extends ContextInit {
  send(method: string, path: string, options?: SendOptions): Promise<ScimExchange>;
  /** The endpoint of the resource type with this core schema (`/Users`, `/Groups`), if the server lists one. */
  endpointOf(schema: string): string | undefined;
  /** The User endpoint, and the Group endpoint: as /ResourceTypes lists them, else the RFC's `/Users` and `/Groups`. */
  readonly users: string;
  readonly groups: string;
  /** `<endpoint>/<id>`, the id percent-encoded as one segment. */
  pathOf(endpoint: string, id: string): string;
  /** PATCH `<endpoint>/<id>` with a PatchOp message of these operations, exactly as given (RFC 7644 §3.5.2). */
  patch(endpoint: string, id: string, operations: readonly unknown[], headers?: Record<string, string>): Promise<ScimExchange>;
  /** Remember a created resource for the clean-up. */
  track(endpoint: string, id: string): void;
  readonly tracked: readonly { readonly endpoint: string; readonly id: string }[];
  /** POST a user (userName made unique) and track it; a failure throws a CheckFailure. */
  createUser(label: string, attributes?: Record<string, unknown>, headers?: Record<string, string>): Promise<ScimResource & { id: string }>;
  createGroup(label: string, attributes?: Record<string, unknown>): Promise<ScimResource & { id: string }>;
  /** GET a resource; a non-200 throws a CheckFailure. */
  read(endpoint: string, id: string, query?: Record<string, string>): Promise<{ resource: Record<string, unknown>; exchange: ScimExchange }>;
  /** Three users created once per run for the filter, paging and attribute checks. */
  fixtures(): Promise<Fixtures>;
}

export interface Fixtures {
  /** `userName sw "<this>"` selects exactly the three. */
  readonly scope: string;
  readonly a: ScimResource & { id: string };
  readonly b: ScimResource & { id: string };
  readonly c: ScimResource & { id: string };
}

export interface ContextInit {
  readonly client: ScimClient;
  /** `/ServiceProviderConfig`, `/Schemas`, `/ResourceTypes` as read at the start ({} / [] when unreadable). */
  readonly config: ServiceProviderConfig;
  readonly schemas: readonly ScimSchema[];
  readonly resourceTypes: readonly ScimResourceType[];
  /** Unique to this run: every userName and displayName the checks create starts with it. */
  readonly prefix: string;
  /** True when `--token` was given (the server is expected to require it). */
  readonly authenticated: boolean;
}

export function createCheckContext(init: ContextInit): CheckContext {
  const tracked: { endpoint: string; id: string }[] = [];
  let fixtures: Promise<Fixtures> | undefined;

  const ctx: CheckContext = {
    ...init,
    tracked,
    send: (method, path, options = {}) =>
      init.client.request({
        method,
        path,
        ...(options.body === undefined ? {} : { body: options.body }),
        ...(options.query === undefined ? {} : { query: options.query }),
        ...(options.headers === undefined ? {} : { headers: options.headers }),
      }),
    get users() {
      return ctx.endpointOf(SCIM_URN.user) ?? '/Users';
    },
    get groups() {
      return ctx.endpointOf(SCIM_URN.group) ?? '/Groups';
    },
    pathOf: (endpoint, id) => `${endpoint}/${encodeURIComponent(id)}`,
    patch: (endpoint, id, operations, headers) => ctx.send('PATCH', ctx.pathOf(endpoint, id), { body: { schemas: [SCIM_URN.patchOp], Operations: operations }, ...(headers === undefined ? {} : { headers }) }),
    endpointOf(schema) {
      const type = init.resourceTypes.find((candidate) => candidate.schema === schema);
      if (type !== undefined) return type.endpoint.startsWith('/') ? type.endpoint : `/${type.endpoint}`;
      // Without /ResourceTypes, the RFC's own endpoints (RFC 7644 §3.2).
      if (init.resourceTypes.length === 0) return schema === SCIM_URN.user ? '/Users' : schema === SCIM_URN.group ? '/Groups' : undefined;
      return undefined;
    },
    track(endpoint, id) {
      tracked.push({ endpoint, id });
    },
    async createUser(label, attributes = {}, headers) {
      const endpoint = ctx.users;
      const userName = `${init.prefix}-${label}`;
      const body = { schemas: [SCIM_URN.user], userName, name: { givenName: 'Check', familyName: label }, ...attributes };
      const exchange = await ctx.send('POST', endpoint, { body, ...(headers === undefined ? {} : { headers }) });
      return created(ctx, endpoint, exchange, 'the user');
    },
    async createGroup(label, attributes = {}) {
      const endpoint = ctx.groups;
      const body = { schemas: [SCIM_URN.group], displayName: `${init.prefix}-${label}`, ...attributes };
      return created(ctx, endpoint, await ctx.send('POST', endpoint, { body }), 'the group');
    },
    async read(endpoint, id, query) {
      const exchange = await ctx.send('GET', ctx.pathOf(endpoint, id), query === undefined ? {} : { query });
      if (exchange.response.status !== 200 || !isObject(exchange.response.body)) {
        throw new CheckFailure(`GET ${endpoint}/{id} answered ${exchange.response.status}`, '200 with the resource (RFC 7644 §3.4.1)', exchange);
      }
      return { resource: exchange.response.body, exchange };
    },
    fixtures() {
      fixtures ??= (async () => {
        const a = await ctx.createUser('f-a', {
          displayName: 'Alpha One',
          title: 'Engineer',
          active: true,
          externalId: `${init.prefix}-ext-a`,
          emails: [{ value: `a@${init.prefix}.example.com`, type: 'work', primary: true }],
        });
        const b = await ctx.createUser('f-b', {
          displayName: 'Beta Two',
          title: 'Manager',
          active: false,
          emails: [
            { value: `b@${init.prefix}.example.com`, type: 'work', primary: true },
            { value: `b.home@${init.prefix}.example.com`, type: 'home' },
          ],
        });
        const c = await ctx.createUser('f-c', { displayName: 'Gamma Three', active: true });
        return { scope: `${init.prefix}-f-`, a, b, c };
      })();
      return fixtures;
    },
  };
  return ctx;
}

function created(ctx: CheckContext, endpoint: string, exchange: ScimExchange, what: string): ScimResource & { id: string } {
  const body = exchange.response.body;
  if (isObject(body) && typeof body['id'] === 'string') ctx.track(endpoint, body['id']);
  if (exchange.response.status !== 201 || !isObject(body) || typeof body['id'] !== 'string') {
    throw new CheckFailure(`Creating ${what} (a step of this check) answered ${exchange.response.status}`, `201 with the created resource and its id (RFC 7644 §3.3)`, exchange);
  }
  return body as ScimResource & { id: string };
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
