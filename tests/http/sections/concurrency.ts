import { describe, expect, it } from 'vitest';
import { patchBody, userBody } from '../support/fixtures.js';
import { expectError } from '../support/expect-scim.js';
import type { Current } from '../support/service-under-test.js';

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

/** docs/concepts/etags-and-concurrency.md: uniqueness and the If-Match check are atomic; no update is ever lost. */
export function describeConcurrency(service: Current): void {
  describe('concurrency', () => {
    it('50 parallel creates of one userName: one 201 and 49 × 409 uniqueness', async () => {
      const { client } = service();
      const replies = await Promise.all(Array.from({ length: 50 }, (_, i) => client.post('/Users', userBody(i % 2 === 0 ? 'race' : 'RACE'))));
      const statuses = replies.map((r) => r.status);
      expect(count(statuses, 201)).toBe(1);
      expect(count(statuses, 409)).toBe(49);
      for (const reply of replies.filter((r) => r.status === 409)) expectError(reply, 409, 'uniqueness');
      expect((await client.get('/Users')).body.totalResults).toBe(1);
    });

    it('100 parallel PATCHes holding the same If-Match: one 200 and 99 × 412', async () => {
      const { client } = service();
      const user = (await client.post('/Users', userBody('cas'))).body;
      const replies = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          client.patch(`/Users/${user.id}`, patchBody({ op: 'replace', path: 'title', value: `writer ${i}` }), { headers: { 'If-Match': user.meta.version } }),
        ),
      );
      const statuses = replies.map((r) => r.status);
      expect(count(statuses, 200)).toBe(1);
      expect(count(statuses, 412)).toBe(99);
      const winner = replies.find((r) => r.status === 200)!;
      const read = await client.get(`/Users/${user.id}`);
      expect(read.body.title).toBe(winner.body.title);
      expect(read.body.meta.version).toBe(winner.body.meta.version);
    });

    it('200 parallel PATCHes without If-Match, each appending an email: all 200, none lost', async () => {
      const { client } = service();
      const user = (await client.post('/Users', userBody('appender'))).body;
      const replies = await Promise.all(
        Array.from({ length: 200 }, (_, i) => client.patch(`/Users/${user.id}`, patchBody({ op: 'add', path: 'emails', value: [{ value: `e${i}@example.com`, type: 'other' }] }))),
      );
      expect(replies.map((r) => r.status).every((s) => s === 200)).toBe(true);
      const read = await client.get(`/Users/${user.id}`);
      const values = new Set(read.body.emails.map((e: { value: string }) => e.value));
      expect(values.size).toBe(201);
      for (let i = 0; i < 200; i++) expect(values.has(`e${i}@example.com`)).toBe(true);
    });
  });
}
