import { describe, expect, it } from 'vitest';
import { answerClientError } from '../../src/adapter/index.js';

function socket(writable = true, bytesWritten = 0) {
  const written: string[] = [];
  let destroyed = false;
  return {
    writable,
    bytesWritten,
    end: (data: string) => void written.push(data),
    destroy: () => void (destroyed = true),
    get written() {
      return written;
    },
    get destroyed() {
      return destroyed;
    },
  };
}

const parserError = (code: string, reason?: string): Error & { code: string; reason?: string } => Object.assign(new Error(code), { code, ...(reason === undefined ? {} : { reason }) });

describe('answerClientError', () => {
  it('answers what the HTTP parser refused with a SCIM error and Connection: close', () => {
    for (const [code, status] of [['HPE_INVALID_METHOD', 400], ['HPE_HEADER_OVERFLOW', 431], ['ERR_HTTP_REQUEST_TIMEOUT', 408], ['HPE_CHUNK_EXTENSIONS_OVERFLOW', 413], ['HPE_INVALID_CONSTANT', 400]] as const) {
      const target = socket();
      answerClientError(parserError(code, 'Expected HTTP/'), target);
      const [response = ''] = target.written;
      expect(response, code).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(response).toContain('Content-Type: application/scim+json\r\n');
      expect(response).toContain('Connection: close\r\n');
      const [head = '', body = ''] = response.split('\r\n\r\n');
      expect(head).toContain(`Content-Length: ${new TextEncoder().encode(body).byteLength}`);
      const error = JSON.parse(body) as { schemas: string[]; status: string; detail: string };
      expect(error.schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:Error']);
      expect(error.status).toBe(String(status));
      expect(error.detail).not.toBe('');
    }
  });

  it('only closes a socket that was reset, is not writable, or already has a response on it', () => {
    for (const target of [socket(false), socket(true, 10)]) {
      answerClientError(parserError('HPE_INVALID_METHOD'), target);
      expect(target.written).toEqual([]);
      expect(target.destroyed).toBe(true);
    }
    const reset = socket();
    answerClientError(parserError('ECONNRESET'), reset);
    expect(reset.written).toEqual([]);
  });
});
