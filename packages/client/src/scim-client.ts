import { bearerAuth, type AuthProvider } from './auth.js';
import { bulkResult, BulkBuilder, type BulkResult } from './bulk-builder.js';
import { ScimProtocolError } from './errors.js';
import type { PatchBuilder, PatchOpMessage } from './patch-builder.js';
import type { Paged, PagingMethod } from './paging.js';
import { ensureOk, expectResource, ResourceEndpoint, searchAt, type AttributeOptions, type CallOptions, type ListOptions, type PatchCallOptions, type WriteOptions } from './resource-endpoint.js';
import type { GroupAttributeName, UserAttributeName } from './attribute-names.js';
import type { ListResponse, ScimGroup, ScimResource, ScimResourceType, ScimSchema, ScimUser, ServiceProviderConfig } from './resources.js';
import { createTransport, type ScimExchange, type ScimRequestInit, type TransportOptions } from './transport.js';

export interface ScimClientOptions extends Omit<TransportOptions, 'auth'> {
  /** A bearer token, or an AuthProvider (`bearerAuth`, `clientCredentialsAuth`, your own). */
  readonly auth?: string | AuthProvider;
}

/** What `discover()` reads: the three discovery endpoints (RFC 7644 §4). */
export interface Discovery {
  readonly serviceProviderConfig: ServiceProviderConfig;
  readonly schemas: ScimSchema[];
  readonly resourceTypes: ScimResourceType[];
}

/** `/Me` (RFC 7644 §3.11): the resource of the authenticated subject. */
export class MeEndpoint<T extends ScimResource = ScimUser> extends ResourceEndpoint<T, UserAttributeName> {
  /** GET /Me. */
  read(options: AttributeOptions<UserAttributeName> = {}): Promise<T> {
    return this.get('', options);
  }
  /** PUT /Me. */
  put(resource: T, options: WriteOptions = {}): Promise<T> {
    return this.replace({ ...resource, id: resource.id ?? 'Me' }, options);
  }
  /** PATCH /Me. */
  update(operations: PatchBuilder | PatchOpMessage, options: PatchCallOptions = {}): Promise<T | undefined> {
    return this.patch('', operations, options);
  }
  /** DELETE /Me. */
  remove(options: WriteOptions = {}): Promise<void> {
    return this.delete('', options);
  }
  override path(): string {
    return '/Me';
  }
}

/**
 * A SCIM 2.0 client over `fetch`. `users` and `groups` are the core endpoints; `resource(path)`
 * reaches any other. Every method throws a ScimResponseError for a non-2xx answer.
 */
export class ScimClient {
  readonly users: ResourceEndpoint<ScimUser, UserAttributeName>;
  readonly groups: ResourceEndpoint<ScimGroup, GroupAttributeName>;
  readonly me: MeEndpoint;
  readonly baseUrl: string;
  readonly #send: (init: ScimRequestInit) => Promise<ScimExchange>;
  #config: Promise<ServiceProviderConfig> | undefined;

  constructor(options: ScimClientOptions) {
    const { auth: given, ...rest } = options;
    const auth = typeof given === 'string' ? bearerAuth(given) : given;
    const transport = createTransport({ ...rest, ...(auth === undefined ? {} : { auth }) });
    this.baseUrl = transport.baseUrl;
    this.#send = (init) => transport.send(init);
    this.users = this.resource<ScimUser, UserAttributeName>('/Users');
    this.groups = this.resource<ScimGroup, GroupAttributeName>('/Groups');
    this.me = new MeEndpoint(this.#host, '/Me');
  }

  readonly #host = {
    send: (init: ScimRequestInit) => this.#send(init),
    pagingMethod: (asked: PagingMethod) => this.#pagingMethod(asked),
  };

  /** Any resource endpoint, e.g. `client.resource<Device>('/Devices')`. */
  resource<T extends ScimResource = ScimResource, Name extends string = string>(endpoint: string): ResourceEndpoint<T, Name> {
    if (!endpoint.startsWith('/')) throw new TypeError(`An endpoint starts with '/': ${JSON.stringify(endpoint)}`);
    return new ResourceEndpoint<T, Name>(this.#host, endpoint);
  }

  /** The raw request: answers every status (no typed error), throws only for timeouts and network failures. */
  request(init: ScimRequestInit): Promise<ScimExchange> {
    return this.#send(init);
  }

  /** `/ServiceProviderConfig` (RFC 7643 §5), read once and kept (`refresh` reads it again). */
  serviceProviderConfig(options: CallOptions & { refresh?: boolean } = {}): Promise<ServiceProviderConfig> {
    if (this.#config === undefined || options.refresh) {
      const reading = this.#get<ServiceProviderConfig>('/ServiceProviderConfig', options);
      this.#config = reading;
      reading.catch(() => {
        if (this.#config === reading) this.#config = undefined;
      });
    }
    return this.#config;
  }

  /** `/Schemas` (RFC 7643 §7): every schema. */
  async schemas(options: CallOptions = {}): Promise<ScimSchema[]> {
    return listed(await this.#get<ListResponse<ScimSchema> | ScimSchema[]>('/Schemas', options));
  }

  /** `/ResourceTypes` (RFC 7643 §6). */
  async resourceTypes(options: CallOptions = {}): Promise<ScimResourceType[]> {
    return listed(await this.#get<ListResponse<ScimResourceType> | ScimResourceType[]>('/ResourceTypes', options));
  }

  /** The three discovery endpoints at once. */
  async discover(options: CallOptions = {}): Promise<Discovery> {
    const [serviceProviderConfig, schemas, resourceTypes] = await Promise.all([this.serviceProviderConfig({ ...options, refresh: true }), this.schemas(options), this.resourceTypes(options)]);
    return { serviceProviderConfig, schemas, resourceTypes };
  }

  /** POST `/.search` at the root: every resource type (RFC 7644 §3.4.3). */
  search<T extends ScimResource = ScimResource>(options: ListOptions = {}): Paged<T> {
    return searchAt<T>(this.#host, '/.search', options);
  }

  /** A BulkRequest builder; send it with `sendBulk`. */
  bulk(): BulkBuilder {
    return new BulkBuilder();
  }

  /**
   * POST `/Bulk` (RFC 7644 §3.7). The request as a whole failing (413, 400…) throws; each
   * operation's own status is in the result.
   */
  async sendBulk(request: BulkBuilder, options: CallOptions & { failOnErrors?: number } = {}): Promise<BulkResult> {
    const exchange = ensureOk(
      await this.#send({
        method: 'POST',
        path: '/Bulk',
        body: request.build(options.failOnErrors),
        ...(options.headers === undefined ? {} : { headers: options.headers }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      }),
      [],
    );
    return bulkResult(expectResource(exchange));
  }

  async #get<T>(path: string, options: CallOptions): Promise<T> {
    const exchange = ensureOk(
      await this.#send({
        method: 'GET',
        path,
        ...(options.headers === undefined ? {} : { headers: options.headers }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      }),
      [],
    );
    return expectResource<T>(exchange);
  }

  async #pagingMethod(asked: PagingMethod): Promise<'index' | 'cursor'> {
    if (asked !== 'auto') return asked;
    try {
      const config = await this.serviceProviderConfig();
      return config.pagination?.cursor === true ? 'cursor' : 'index';
    } catch {
      return 'index';
    }
  }
}

/** A client for the service at `baseUrl`. */
export function createScimClient(options: ScimClientOptions): ScimClient {
  return new ScimClient(options);
}

function listed<T>(body: ListResponse<T> | T[]): T[] {
  if (Array.isArray(body)) return body;
  if (Array.isArray(body.Resources)) return body.Resources;
  if (body.totalResults === 0) return [];
  throw new ScimProtocolError('Expected a ListResponse of discovery documents (RFC 7644 §4)');
}
