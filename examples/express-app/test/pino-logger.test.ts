import { createMemoryStore, createScimServer, userResourceType } from '@scimkit/core';
import { describe, expect, it } from 'vitest';
import { pinoLogger, type PinoLike } from '../src/pino-logger.js';

describe('pinoLogger', () => {
  it("writes every record at its level, the fields as pino's object and the error under err", async () => {
    const lines: [string, Record<string, unknown>, string][] = [];
    const at = (level: string) => (fields: object, message: string) => void lines.push([level, fields as Record<string, unknown>, message]);
    const pino: PinoLike = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
    const failure = new Error('store down');
    const store = createMemoryStore();
    const server = createScimServer({ resourceTypes: [userResourceType], store: { ...store, query: () => Promise.reject(failure) }, logger: pinoLogger(pino) });
    await server.handle({ method: 'GET', path: '/Users', headers: { 'x-request-id': 'abc' } });
    expect(lines).toEqual([
      ['error', { requestId: 'abc', method: 'GET', path: '/Users', err: failure }, 'unexpected failure while handling a request'],
      ['info', { requestId: 'abc', method: 'GET', path: '/Users', status: 500, durationMs: expect.any(Number) }, 'request answered'],
    ]);
  });
});
