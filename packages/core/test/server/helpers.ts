import { createMemoryStore, createScimServer, userResourceType, type ScimRequest, type ScimResponse, type ScimServer, type ScimServerConfig } from '../../src/index.js';

export const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';

/** A server over a fresh memory store with the User type, plus what a test overrides. */
export function server(overrides: Partial<ScimServerConfig> = {}): ScimServer {
  return createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore(), logger: { log: () => undefined }, ...overrides });
}

export interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Record<string, any>;
}

export async function call(target: ScimServer, request: ScimRequest): Promise<Reply> {
  const response: ScimResponse = await target.handle(request);
  return { status: response.status, headers: response.headers, body: response.body === undefined ? {} : JSON.parse(response.body) };
}

export function post(path: string, body: unknown, extra: Partial<ScimRequest> = {}): ScimRequest {
  return { method: 'POST', path, body: JSON.stringify(body), headers: { 'content-type': 'application/scim+json' }, ...extra };
}

export function user(userName: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { schemas: [USER], userName, ...extra };
}
