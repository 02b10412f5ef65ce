/** A response as the tests inspect it: status, headers, raw text and the parsed JSON body. */
export interface ScimReply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** Parsed JSON body, or undefined when the body is empty. */
  readonly body: any;
}

export interface SendOptions {
  /** A JSON value (serialized) or a raw string / bytes sent as they are. */
  readonly json?: unknown;
  readonly raw?: string | Uint8Array;
  readonly headers?: Record<string, string>;
  /** Query parameters, percent-encoded by URLSearchParams. */
  readonly query?: Record<string, string | number>;
}

/** A small fetch client for one SCIM base URL (e.g. `http://127.0.0.1:PORT/scim/v2`). */
export interface ScimClient {
  readonly baseUrl: string;
  send(method: string, path: string, options?: SendOptions): Promise<ScimReply>;
  get(path: string, options?: SendOptions): Promise<ScimReply>;
  post(path: string, json: unknown, options?: SendOptions): Promise<ScimReply>;
  put(path: string, json: unknown, options?: SendOptions): Promise<ScimReply>;
  patch(path: string, json: unknown, options?: SendOptions): Promise<ScimReply>;
  delete(path: string, options?: SendOptions): Promise<ScimReply>;
}

export function scimClient(baseUrl: string, defaultHeaders: Record<string, string> = {}): ScimClient {
  const send = async (method: string, path: string, options: SendOptions = {}): Promise<ScimReply> => {
    const query = options.query === undefined ? '' : `?${new URLSearchParams(Object.entries(options.query).map(([k, v]): [string, string] => [k, String(v)])).toString()}`;
    const headers: Record<string, string> = { Accept: 'application/scim+json', ...defaultHeaders, ...options.headers };
    let body: string | Uint8Array | undefined;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['Content-Type'] ??= 'application/scim+json';
    } else if (options.raw !== undefined) {
      body = options.raw;
    }
    const response = await fetch(`${baseUrl}${path}${query}`, { method, headers, ...(body === undefined ? {} : { body }) });
    const text = await response.text();
    let parsed: unknown;
    if (text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
    }
    return { status: response.status, headers: response.headers, text, body: parsed };
  };
  return {
    baseUrl,
    send,
    get: (path, options) => send('GET', path, options),
    post: (path, json, options) => send('POST', path, { ...options, json }),
    put: (path, json, options) => send('PUT', path, { ...options, json }),
    patch: (path, json, options) => send('PATCH', path, { ...options, json }),
    delete: (path, options) => send('DELETE', path, options),
  };
}
