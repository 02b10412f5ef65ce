import { createScimServer, type ScimServer, type ScimServerConfig } from '@scimkit/core';

/** A SCIM answer the console reads: its status and parsed body. */
export interface DirectoryAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/**
 * Reads users and groups for the console through a second server over the same store and schemas:
 * the same filters, paging and computed `User.groups` as SCIM clients get, but without the
 * application's authentication, scopes and rate limit (the console has its own authorization),
 * hooks, events or request log, so browsing never
 * shows up as client traffic. Read-only: it is only ever sent GETs.
 */
export class Directory {
  private readonly reader: ScimServer;

  constructor(scim: ScimServer) {
    const { requestLog: _log, onRequest: _req, onResponse: _res, onChange: _change, beforeWrite: _before, authenticate: _auth, authorize: _scopes, admit: _admit, events: _events, tracing: _tracing, tenancy, ...rest } = scim.config;
    const config: { -readonly [K in keyof ScimServerConfig]: ScimServerConfig[K] } = { ...rest, authenticate: () => ({ ok: true }) };
    if (tenancy !== undefined) {
      const { path: _path, ...keep } = tenancy;
      config.tenancy = keep;
    }
    this.reader = createScimServer(config);
  }

  async get(tenant: string, path: string, query: Record<string, string> = {}): Promise<DirectoryAnswer> {
    const answer = await this.reader.handle({ method: 'GET', path, query, headers: { accept: 'application/scim+json' }, ...(tenant === '' ? {} : { tenant }), baseUrl: 'http://console.invalid' });
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(answer.body ?? '{}') as Record<string, unknown>;
    } catch {
      body = {};
    }
    return { status: answer.status, body };
  }
}
