import type { AddressInfo } from 'node:net';
import { createMemoryStore, createScimServer, userResourceType } from '@scimkit/core';
import { createEventDispatcher, webhookDelivery } from '@scimkit/events';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { sessionRevoker } from '../src/session-revoker.js';

const SECRET = `whsec_${Buffer.from('the receiver and the server share it').toString('base64')}`;
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';

describe('a webhook receiver that revokes sessions on user.deactivated', () => {
  it('verifies the signature, revokes once per event, refuses a forged message', async () => {
    const revoked: string[] = [];
    const app = express();
    app.use('/webhooks/scim', sessionRevoker(SECRET, { revokeAll: (userId) => void revoked.push(userId) }));
    const listener = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => listener.once('listening', resolve));
    const url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/webhooks/scim`;
    try {
      const store = createMemoryStore();
      const scim = createScimServer({ resourceTypes: [userResourceType], store, events: {}, logger: { log: () => undefined } });
      const created = await scim.handle({ method: 'POST', path: '/Users', headers: { 'content-type': 'application/scim+json' }, body: JSON.stringify({ schemas: [USER], userName: 'leaver' }) });
      const id = JSON.parse(created.body ?? '{}').id as string;
      await scim.handle({
        method: 'PATCH',
        path: `/Users/${id}`,
        headers: { 'content-type': 'application/scim+json' },
        body: JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', path: 'active', value: false }] }),
      });
      const deliver = webhookDelivery({ endpoint: { url, secret: SECRET } });
      const dispatcher = createEventDispatcher({ outbox: store.outbox!, consumer: 'sessions', deliver, logger: { log: () => undefined } });
      expect(await dispatcher.runOnce()).toBe(3);
      expect(revoked).toEqual([id]);
      // Delivered again (at least once): not revoked twice.
      const [event] = (await Promise.all((await store.outbox!.lease('replay', 'me', { max: 16, leaseMs: 1000 })).map((l) => store.outbox!.read(l, 10))))
        .flat()
        .filter((record) => record.event.type === 'user.deactivated');
      await deliver(event!.event);
      expect(revoked).toEqual([id]);
      // Signed with another secret: 401, nothing revoked.
      const forged = webhookDelivery({ endpoint: { url, secret: `whsec_${Buffer.from('not the shared secret at all!!').toString('base64')}` } });
      await expect(forged({ ...event!.event, id: 'forged', resourceId: 'victim' })).rejects.toThrow(/401/);
      expect(revoked).toEqual([id]);
    } finally {
      listener.close();
    }
  });
});
