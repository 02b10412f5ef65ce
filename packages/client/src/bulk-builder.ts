import { PatchBuilder, type PatchOpMessage } from './patch-builder.js';
import { SCIM_URN } from './urn.js';

/** One operation of a BulkRequest (RFC 7644 §3.7). */
export interface BulkOperation {
  readonly method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly bulkId?: string;
  readonly version?: string;
  readonly data?: unknown;
}

/** One operation's outcome in a BulkResponse (RFC 7644 §3.7.3). */
export interface BulkOperationResult {
  readonly method: string;
  readonly bulkId?: string;
  readonly version?: string;
  readonly location?: string;
  /** The HTTP status, as a number (servers send it as a string). */
  readonly status: number;
  readonly response?: unknown;
}

export interface BulkResult {
  readonly operations: readonly BulkOperationResult[];
  /** The operation that carried `bulkId` (give the `bulkId:` reference or the bare id). */
  find(bulkId: string): BulkOperationResult | undefined;
  /** The id the server gave the resource a POST with this `bulkId` created (the last segment of `location`). */
  idOf(bulkId: string): string | undefined;
}

/**
 * Builds a BulkRequest (RFC 7644 §3.7). `create` returns the `bulkId:<id>` reference to the new
 * resource, to use in later operations' data (a group's `members[].value`) or paths; the server
 * resolves it (§3.7.2).
 */
export class BulkBuilder {
  readonly #operations: BulkOperation[] = [];
  #next = 0;

  /** POST `data` to `endpoint` (`/Users`); returns its `bulkId:` reference. */
  create(endpoint: string, data: unknown, bulkId: string = `op${++this.#next}`): string {
    if (!/^[A-Za-z0-9_.-]+$/.test(bulkId)) throw new TypeError(`A bulkId of letters, digits, '.', '_' and '-': ${JSON.stringify(bulkId)}`);
    this.#operations.push({ method: 'POST', path: endpoint, bulkId, data });
    return `bulkId:${bulkId}`;
  }

  replace(path: string, data: unknown, version?: string): this {
    this.#operations.push({ method: 'PUT', path, data, ...(version === undefined ? {} : { version }) });
    return this;
  }

  patch(path: string, operations: PatchBuilder | PatchOpMessage, version?: string): this {
    const data = operations instanceof PatchBuilder ? operations.build() : operations;
    this.#operations.push({ method: 'PATCH', path, data, ...(version === undefined ? {} : { version }) });
    return this;
  }

  delete(path: string, version?: string): this {
    this.#operations.push({ method: 'DELETE', path, ...(version === undefined ? {} : { version }) });
    return this;
  }

  get operations(): readonly BulkOperation[] {
    return this.#operations;
  }

  /** The BulkRequest body; `failOnErrors` stops the server after that many errors (§3.7.3). */
  build(failOnErrors?: number): Record<string, unknown> {
    return { schemas: [SCIM_URN.bulkRequest], ...(failOnErrors === undefined ? {} : { failOnErrors }), Operations: [...this.#operations] };
  }
}

export function bulkResult(body: unknown): BulkResult {
  const raw = typeof body === 'object' && body !== null && Array.isArray((body as { Operations?: unknown }).Operations) ? (body as { Operations: Record<string, unknown>[] }).Operations : [];
  const operations: BulkOperationResult[] = raw.map((op) => ({
    method: String(op['method'] ?? ''),
    status: Number(typeof op['status'] === 'object' && op['status'] !== null ? (op['status'] as { code?: unknown }).code : op['status']),
    ...(typeof op['bulkId'] === 'string' ? { bulkId: op['bulkId'] } : {}),
    ...(typeof op['version'] === 'string' ? { version: op['version'] } : {}),
    ...(typeof op['location'] === 'string' ? { location: op['location'] } : {}),
    ...(op['response'] === undefined ? {} : { response: op['response'] }),
  }));
  const find = (bulkId: string): BulkOperationResult | undefined => {
    const id = bulkId.startsWith('bulkId:') ? bulkId.slice('bulkId:'.length) : bulkId;
    return operations.find((op) => op.bulkId === id);
  };
  return {
    operations,
    find,
    idOf(bulkId) {
      const location = find(bulkId)?.location;
      return location === undefined ? undefined : decodeURIComponent(location.replace(/\/+$/, '').split('/').pop() ?? '');
    },
  };
}
