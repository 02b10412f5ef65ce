import { ScimProtocolError, responseError } from './errors.js';
import type { ScimFilter } from './filter-builder.js';
import { PatchBuilder, type PatchOpMessage } from './patch-builder.js';
import { Paged, type PagingMethod } from './paging.js';
import type { ListResponse, Named, ScimResource } from './resources.js';
import type { ScimExchange, ScimRequestInit } from './transport.js';
import { SCIM_URN } from './urn.js';

/** Per-request options every method takes. */
export interface CallOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  readonly headers?: Readonly<Record<string, string>>;
}

/** `attributes` / `excludedAttributes` (RFC 7644 §3.9). */
export interface AttributeOptions<Name extends string = string> extends CallOptions {
  readonly attributes?: readonly Name[];
  readonly excludedAttributes?: readonly Name[];
}

/** A list or search (RFC 7644 §3.4.2–3.4.3). */
export interface ListOptions<Name extends string = string> extends AttributeOptions<Name> {
  readonly filter?: ScimFilter | string;
  readonly sortBy?: Name;
  readonly sortOrder?: 'ascending' | 'descending';
  /** Results per page (`count`); the server may return fewer. Default: the server's. */
  readonly pageSize?: number;
  /** Default `auto`: cursors when `/ServiceProviderConfig` advertises them (RFC 9865 §4), else index. */
  readonly paging?: PagingMethod;
  /** Index paging: the first result wanted (1-based). Default 1. */
  readonly startIndex?: number;
}

/**
 * A resource version to write over: the resource read before (its `meta.version` becomes
 * `If-Match`, RFC 7644 §3.14), an explicit ETag, or `false` to write unconditionally.
 */
export type IfMatch = string | false | undefined;

/** What a write takes as its target: an id, or the resource read before (id and `meta.version`). */
export type Target = string | ScimResource;

export interface WriteOptions extends CallOptions {
  /** Default: the `meta.version` of the resource passed, if any. `false` sends no `If-Match`. */
  readonly ifMatch?: IfMatch;
}

export interface PatchCallOptions extends WriteOptions {
  /** Send `Prefer: return=representation` so that a server that would answer 204 returns the resource. */
  readonly returnResource?: boolean;
}

/** What `create` takes: the resource without `id` and `meta` (the server assigns them), its attributes typed. */
export type NewResource<T extends ScimResource> = Omit<Named<T>, 'id' | 'meta'> & { schemas: string[]; [attribute: string]: unknown };

/** What the endpoint needs from the client. */
export interface EndpointHost {
  send(init: ScimRequestInit): Promise<ScimExchange>;
  pagingMethod(asked: PagingMethod): Promise<'index' | 'cursor'>;
}

/**
 * One resource endpoint (`/Users`, `/Groups`, any other): RFC 7644 §3.3 create, §3.4.1 get,
 * §3.4.2 list, §3.4.3 search, §3.5.1 replace, §3.5.2 patch, §3.6 delete. Every non-2xx answer
 * throws a ScimResponseError (412: ScimPreconditionFailedError).
 */
export class ResourceEndpoint<T extends ScimResource = ScimResource, Name extends string = string> {
  constructor(
    protected readonly host: EndpointHost,
    /** The endpoint path, e.g. `/Users`. */
    readonly endpoint: string,
  ) {}

  /** POST: the created resource (with `id` and `meta.version`). */
  async create(resource: NewResource<T>, options: CallOptions = {}): Promise<T> {
    return expectResource<T>(await this.call({ method: 'POST', path: this.endpoint, body: resource }, options));
  }

  /** GET by id. */
  async get(id: string, options: AttributeOptions<Name> = {}): Promise<T> {
    return expectResource<T>(await this.call({ method: 'GET', path: this.path(id), query: selection(options) }, options));
  }

  /** GET with `If-None-Match`: undefined when the resource is still at `version` (304, RFC 7232 §3.2). */
  async getIfChanged(id: string, version: string, options: AttributeOptions<Name> = {}): Promise<T | undefined> {
    const exchange = await this.call({ method: 'GET', path: this.path(id), query: selection(options), headers: { ...options.headers, 'if-none-match': version } }, options, [304]);
    return exchange.response.status === 304 ? undefined : expectResource<T>(exchange);
  }

  /** PUT the whole resource (its `id` names it); `If-Match` from its `meta.version` unless `ifMatch` says otherwise. */
  async replace(resource: T, options: WriteOptions = {}): Promise<T> {
    const id = resource.id;
    if (typeof id !== 'string' || id === '') throw new TypeError('replace: the resource has no id; use create()');
    return expectResource<T>(await this.call({ method: 'PUT', path: this.path(id), body: resource, headers: ifMatchHeader(resource, options) }, options));
  }

  /** PATCH; the resource when the server returns it (200), undefined when it answers 204. */
  async patch(target: Target, operations: PatchBuilder | PatchOpMessage, options: PatchCallOptions = {}): Promise<T | undefined> {
    const body = operations instanceof PatchBuilder ? operations.build() : operations;
    const headers = { ...ifMatchHeader(target, options), ...(options.returnResource ? { prefer: 'return=representation' } : {}) };
    const exchange = await this.call({ method: 'PATCH', path: this.path(idOf(target)), body, headers }, options);
    return exchange.response.status === 204 || exchange.response.text === '' ? undefined : expectResource<T>(exchange);
  }

  /** DELETE (204). */
  async delete(target: Target, options: WriteOptions = {}): Promise<void> {
    await this.call({ method: 'DELETE', path: this.path(idOf(target)), headers: ifMatchHeader(target, options) }, options);
  }

  /** GET the endpoint with query parameters, every page: `for await (const user of client.users.list({ filter }))`. */
  list(options: ListOptions<Name> = {}): Paged<T> {
    return new Paged<T>(
      async (position, count) => {
        const query = { ...listParameters(options), ...positionQuery(position), ...(count === undefined ? {} : { count }) };
        return expectList<T>(await this.call({ method: 'GET', path: this.endpoint, query }, options));
      },
      () => this.host.pagingMethod(options.paging ?? 'auto'),
      options.pageSize,
      options.startIndex,
    );
  }

  /** POST `/.search` on the endpoint (RFC 7644 §3.4.3): the same as `list`, the query in the body. */
  search(options: ListOptions<Name> = {}): Paged<T> {
    return searchAt<T>(this.host, `${this.endpoint}/.search`, options);
  }

  /** The path of one resource: the id percent-encoded as one segment. */
  path(id: string): string {
    if (typeof id !== 'string' || id === '') throw new TypeError('A resource id must be a non-empty string');
    return `${this.endpoint}/${encodeURIComponent(id)}`;
  }

  protected async call(init: ScimRequestInit, options: CallOptions, accepted: readonly number[] = []): Promise<ScimExchange> {
    const exchange = await this.host.send({
      ...init,
      headers: { ...options.headers, ...init.headers },
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    });
    return ensureOk(exchange, accepted);
  }
}

/** POST `.search` at any path (`/.search` searches every resource type, RFC 7644 §3.4.3). */
export function searchAt<T>(host: EndpointHost, path: string, options: ListOptions): Paged<T> {
  return new Paged<T>(
    async (position, count) => {
      const parameters = listParameters(options);
      const body = {
        schemas: [SCIM_URN.searchRequest],
        ...parameters,
        ...(options.attributes === undefined ? {} : { attributes: options.attributes }),
        ...(options.excludedAttributes === undefined ? {} : { excludedAttributes: options.excludedAttributes }),
        ...positionQuery(position),
        ...(count === undefined ? {} : { count }),
      };
      const exchange = ensureOk(
        await host.send({
          method: 'POST',
          path,
          body,
          ...(options.headers === undefined ? {} : { headers: options.headers }),
          ...(options.signal === undefined ? {} : { signal: options.signal }),
          ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        }),
        [],
      );
      return expectList<T>(exchange);
    },
    () => host.pagingMethod(options.paging ?? 'auto'),
    options.pageSize,
    options.startIndex,
  );
}

/** Throws the typed error of a non-2xx answer (other than `accepted`). */
export function ensureOk(exchange: ScimExchange, accepted: readonly number[]): ScimExchange {
  const { status } = exchange.response;
  if ((status >= 200 && status < 300) || accepted.includes(status)) return exchange;
  throw responseError({
    method: exchange.request.method,
    url: exchange.request.url,
    status,
    headers: exchange.response.headers,
    body: exchange.response.body ?? exchange.response.text,
  });
}

export function expectResource<T>(exchange: ScimExchange): T {
  const body = exchange.response.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ScimProtocolError(`${exchange.request.method} ${exchange.request.url}: expected a resource, got ${exchange.response.text.slice(0, 200) || 'an empty body'}`);
  }
  return body as T;
}

function expectList<T>(exchange: ScimExchange): ListResponse<T> {
  return expectResource<ListResponse<T>>(exchange);
}

function idOf(target: Target): string {
  if (typeof target === 'string') return target;
  if (typeof target.id !== 'string') throw new TypeError('The resource has no id');
  return target.id;
}

function ifMatchHeader(target: Target, options: WriteOptions): Record<string, string> {
  if (options.ifMatch === false) return {};
  const version = options.ifMatch ?? (typeof target === 'string' ? undefined : target.meta?.version);
  return version === undefined ? {} : { 'if-match': version };
}

function selection(options: AttributeOptions): Record<string, string | undefined> {
  return {
    attributes: options.attributes === undefined ? undefined : options.attributes.join(','),
    excludedAttributes: options.excludedAttributes === undefined ? undefined : options.excludedAttributes.join(','),
  };
}

function listParameters(options: ListOptions): Record<string, string | undefined> {
  return {
    ...selection(options),
    filter: options.filter === undefined ? undefined : String(options.filter),
    sortBy: options.sortBy,
    sortOrder: options.sortOrder,
  };
}

function positionQuery(position: { startIndex: number } | { cursor: string }): Record<string, string | number> {
  return 'cursor' in position ? { cursor: position.cursor } : { startIndex: position.startIndex };
}
