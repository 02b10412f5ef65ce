import express, { type Router } from 'express';
import { Webhook } from 'standardwebhooks';

/** Where the application keeps its sessions: what a deactivation must end. */
export interface SessionStore {
  revokeAll(userId: string): Promise<void> | void;
}

/**
 * A webhook receiver for scimkit's events (docs/concepts/events.md): it verifies the Standard
 * Webhooks signature over the raw body, and on `user.deactivated` or `user.deleted` ends every
 * session of that user. Events arrive at least once: revoking twice is harmless, and `webhook-id`
 * (the event id) is remembered to skip a repeat.
 */
export function sessionRevoker(secret: string, sessions: SessionStore): Router {
  const webhook = new Webhook(secret);
  const seen = new Set<string>();
  const router = express.Router();
  router.post('/', express.raw({ type: 'application/json' }), async (req, res) => {
    let event: { type: string; data: { id: string; resourceId: string } };
    try {
      event = webhook.verify(req.body as Buffer, req.headers as Record<string, string>) as typeof event;
    } catch {
      res.status(401).end(); // a forged, altered or stale message
      return;
    }
    if (!seen.has(event.data.id) && (event.type === 'user.deactivated' || event.type === 'user.deleted')) {
      await sessions.revokeAll(event.data.resourceId);
    }
    seen.add(event.data.id);
    res.status(204).end();
  });
  return router;
}
