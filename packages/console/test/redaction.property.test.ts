import { bearerToken, createMemoryStore, createScimServer, userResourceType, type ScimRequest } from '@scimkit/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createConsole, createRequestLog } from '../src/index.js';
import { PATCH_OP, USER } from './entra-flow.js';

const secret = (prefix: string) => fc.stringMatching(/^[A-Za-z0-9]{18,28}$/).map((s) => `${prefix}${s}`);

/** Where a generated request carries the password and the personal value. */
const shapes = ['create', 'escapedKey', 'replace', 'patchPath', 'patchUrnPath', 'patchPathless', 'patchPathKeys', 'patchPlain', 'filter', 'notJson'] as const;

function requestFor(shape: (typeof shapes)[number], id: string, token: string, password: string, personal: string): ScimRequest {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json', 'user-agent': 'Okta SCIM Client', 'x-api-key': token };
  const user = { schemas: [USER], userName: `u-${personal.slice(0, 6)}@example.com`, password, nickName: personal, emails: [{ value: `${personal}@example.com`, type: 'work' }] };
  switch (shape) {
    case 'create':
      return { method: 'POST', path: '/Users', headers, body: JSON.stringify(user) };
    case 'escapedKey':
      // The secret's name spelled with JSON escapes: the same member once parsed.
      return { method: 'POST', path: '/Users', headers, body: `{"schemas":["${USER}"],"userName":"e-${personal.slice(0, 6)}@example.com","\\u0070assword":"${password}","nickName":"${personal}"}` };
    case 'patchPlain':
      // Nothing in the body names a secret: kept as the client sent it, unparsed.
      return { method: 'PATCH', path: `/Users/${id}`, headers, body: JSON.stringify({ schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'title', value: 'Engineer' }, { op: 'add', path: 'nickName', value: personal }] }) };
    case 'replace':
      return { method: 'PUT', path: `/Users/${id}`, headers, body: JSON.stringify(user) };
    case 'patchPath':
      return { method: 'PATCH', path: `/Users/${id}`, headers, body: JSON.stringify({ schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'password', value: password }, { op: 'add', path: 'nickName', value: personal }] }) };
    case 'patchUrnPath':
      return { method: 'PATCH', path: `/Users/${id}`, headers, body: JSON.stringify({ schemas: [PATCH_OP], Operations: [{ op: 'Replace', path: `${USER}:password`, value: password }, { op: 'replace', path: `emails[value eq "${personal}@example.com"].type`, value: 'home' }] }) };
    case 'patchPathless':
      return { method: 'PATCH', path: `/Users/${id}`, headers, body: JSON.stringify({ schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { password, nickName: personal } }] }) };
    case 'patchPathKeys':
      return { method: 'PATCH', path: `/Users/${id}`, headers, body: { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { [`${USER}:password`]: password, nickName: personal, active: 'maybe' } }] } };
    case 'filter':
      return { method: 'GET', path: '/Users', headers, query: { filter: `nickName eq "${personal}" or password eq "${password}"` } };
    case 'notJson':
      return { method: 'POST', path: '/Users', headers, body: `{"userName":"x","password":"${password}","nickName":"${personal}"` };
  }
}

describe('redaction (property)', () => {
  it('a token, a password and (unless kept) a configured personal field never reach the log, the console or its API', async () => {
    await fc.assert(
      fc.asyncProperty(
        secret('tok'),
        secret('pw'),
        secret('pii'),
        fc.constantFrom('keep', 'mask', 'drop') as fc.Arbitrary<'keep' | 'mask' | 'drop'>,
        fc.array(fc.constantFrom(...shapes), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        async (token, password, personal, policy, sequence, goodToken) => {
          const log = createRequestLog({ redaction: { personalFields: ['nickName', 'emails'], personalData: policy } });
          const scim = createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore(), ...bearerToken({ tokens: [{ token: goodToken ? token : 'another-token-000000000' }] }), requestLog: log });
          // A user to change, created by a client whose secrets are not the ones checked.
          const seed = await scim.handle({
            method: 'POST',
            path: '/Users',
            headers: { authorization: `Bearer ${goodToken ? token : 'another-token-000000000'}` },
            body: JSON.stringify({ schemas: [USER], userName: 'seed@example.com' }),
          });
          const id = (JSON.parse(seed.body ?? '{}') as { id?: string }).id ?? 'missing';
          for (const shape of sequence) await scim.handle(requestFor(shape, id, token, password, personal));
          await log.flush();
          const { records } = await log.query({ tenant: '', limit: 500 });
          expect(records.length).toBe(sequence.length + 1);
          const kept = JSON.stringify(records);
          // The console's pages and its API, as a visitor the application authorized sees them.
          const console = createConsole({ log, scim, authorize: () => true });
          const paths = ['/', '/requests', '/api/requests', '/api/clients', '/users', ...records.flatMap((r) => [`/requests/${r.id}`, `/api/requests/${r.id}`]), ...records.flatMap((r) => (r.resourceId === undefined ? [] : [`/users/${r.resourceId}`]))];
          const pages = await Promise.all(paths.map((path) => console.handle({ method: 'GET', path, headers: {} })));
          expect(pages.filter((p) => p.status !== 200 && p.status !== 404)).toEqual([]);
          const shown = kept + pages.map((p) => p.body ?? '').join('\n');
          expect(shown).not.toContain(token);
          expect(shown).not.toContain(password);
          if (policy !== 'keep') expect(shown).not.toContain(personal);
        },
      ),
      { numRuns: Number(process.env['FUZZ_RUNS'] ?? 60) > 200 ? 200 : 60 },
    );
  });
});
