import { expect } from 'vitest';

const ERROR_URN = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** A response as the fuzz suites see it: through `handle()` or read off a socket. */
export interface SeenResponse {
  readonly status: number;
  /** Header names in any case. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** Paths whose features answer 501 until they land (RFC 7644 §3.7 Bulk, §3.11 /Me), as the router reads them. */
function notYet(path: string): boolean {
  const segments = (path.split(/[?#]/, 1)[0] ?? '').split('/').filter((segment) => segment !== '');
  if (segments.length !== 1) return false;
  try {
    return /^(bulk|me)$/i.test(decodeURIComponent(segments[0] ?? ''));
  } catch {
    return false;
  }
}

/**
 * A well-formed SCIM response (RFC 7644 §3.1, §3.12): a status below 500 (501 only for /Bulk and
 * /Me while they are not implemented); a body, when there is one, is JSON in
 * `application/scim+json`; an error body is the RFC 7644 §3.12 Error with `status` equal to the
 * HTTP status and a string `detail`.
 */
export function expectWellFormed(response: SeenResponse, request: { readonly method: string; readonly path: string }, context: string): void {
  const { path } = request;
  const where = `${context} → ${response.status}`;
  expect(response.status, where).toBeGreaterThanOrEqual(200);
  if (response.status === 501) expect(notYet(path), where).toBe(true);
  else expect(response.status, where).toBeLessThan(500);
  const header = (name: string) => Object.entries(response.headers).find(([key]) => key.toLowerCase() === name)?.[1];
  // RFC 9110 §9.3.2: a HEAD answer has the GET answer's status and headers, and no content.
  if (request.method.toUpperCase() === 'HEAD') {
    expect(response.body ?? '', where).toBe('');
    return;
  }
  if (response.body === undefined || response.body === '') {
    expect([204, 304].includes(response.status) || response.body === '', where).toBe(true);
    return;
  }
  expect(header('content-type'), where).toMatch(/^application\/scim\+json\b/);
  const body = JSON.parse(response.body) as Record<string, unknown>;
  expect(typeof body, where).toBe('object');
  if (response.status >= 400) {
    expect(body['schemas'], where).toEqual([ERROR_URN]);
    expect(body['status'], where).toBe(String(response.status));
    expect(typeof body['detail'], where).toBe('string');
  } else {
    expect(Array.isArray(body['schemas']), where).toBe(true);
  }
}
