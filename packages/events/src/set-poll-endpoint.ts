import type { EventOutbox, OutboxLease, ScimEvent } from '@scimkit/core';
import type { SetIssuer } from './set-issuer.js';

export interface SetPollOptions {
  readonly outbox: EventOutbox;
  /** The consumer this endpoint serves (one per receiver): its positions are kept in the store. */
  readonly consumer: string;
  readonly issuer: SetIssuer;
  /** This instance's name in leases. Default a random UUID. */
  readonly owner?: string;
  /** Largest `maxEvents` honoured. Default 100. */
  readonly maxEvents?: number;
  /** Longest wait of a long poll (`returnImmediately: false`) with nothing to return, in ms. Default 5,000. */
  readonly maxWaitMs?: number;
  /** Lease of the partitions between polls, in ms. Default 60,000. */
  readonly leaseMs?: number;
}

/** A JSON answer for the application's framework to send. */
export interface SetPollResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface SetPollEndpoint {
  /** Answer one RFC 8936 poll request (its parsed JSON body). Never rejects. */
  handle(body: unknown): Promise<SetPollResponse>;
}

interface Handed {
  readonly jti: string;
  readonly position: string;
  readonly event: ScimEvent;
}

const JSON_HEADERS = { 'content-type': 'application/json', 'cache-control': 'no-store' };

/**
 * An RFC 8936 poll endpoint over the outbox. A poll acknowledges SETs (`ack`, and `setErrs`, which
 * are dead-lettered with the receiver's error) and gets the next ones (`sets`, `moreAvailable`).
 * The consumer's position in each partition moves past a SET once it and every earlier SET of the
 * partition are acknowledged, so an unacknowledged SET is served again (at least once), in order.
 */
export function createSetPollEndpoint(options: SetPollOptions): SetPollEndpoint {
  const { outbox, consumer, issuer } = options;
  const owner = options.owner ?? globalThis.crypto.randomUUID();
  const cap = options.maxEvents ?? 100;
  const maxWaitMs = options.maxWaitMs ?? 5_000;
  const leaseMs = options.leaseMs ?? 60_000;
  const handed = new Map<number, Handed[]>();
  const acked = new Set<string>();

  async function settle(leases: readonly OutboxLease[]): Promise<OutboxLease[]> {
    const current: OutboxLease[] = [];
    for (const lease of leases) {
      const list = handed.get(lease.partition) ?? [];
      let last: string | undefined;
      while (list.length > 0 && acked.has(list[0]!.jti)) {
        const done = list.shift()!;
        acked.delete(done.jti);
        last = done.position;
      }
      if (last !== undefined && (await outbox.advance(lease, last, leaseMs))) current.push({ ...lease, position: last });
      else current.push(lease);
    }
    return current;
  }

  async function collect(leases: readonly OutboxLease[], max: number): Promise<{ sets: Record<string, string>; more: boolean }> {
    const sets: Record<string, string> = {};
    let count = 0;
    let more = false;
    for (const lease of leases) {
      const records = await outbox.read(lease, max + 1);
      const list: Handed[] = [];
      for (const record of records) {
        list.push({ jti: record.event.id, position: record.position, event: record.event });
        if (acked.has(record.event.id)) continue;
        if (count >= max) {
          more = true;
          break;
        }
        sets[record.event.id] = await issuer.sign(record.event);
        count++;
      }
      handed.set(lease.partition, list);
    }
    return { sets, more };
  }

  return {
    async handle(body) {
      try {
        if (typeof body !== 'object' || body === null || Array.isArray(body)) return answer(400, { err: 'invalid_request', description: 'the poll request must be a JSON object (RFC 8936 §2.4)' });
        const request = body as { ack?: unknown; setErrs?: unknown; maxEvents?: unknown; returnImmediately?: unknown };
        const ack = request.ack ?? [];
        if (!Array.isArray(ack) || !ack.every((jti) => typeof jti === 'string')) return answer(400, { err: 'invalid_request', description: 'ack must be an array of jti strings' });
        const errors = request.setErrs ?? {};
        if (typeof errors !== 'object' || errors === null || Array.isArray(errors)) return answer(400, { err: 'invalid_request', description: 'setErrs must be an object keyed by jti' });
        const max = request.maxEvents === undefined ? cap : Number(request.maxEvents);
        if (!Number.isInteger(max) || max < 0) return answer(400, { err: 'invalid_request', description: 'maxEvents must be a non-negative integer' });
        for (const jti of ack as string[]) acked.add(jti);
        for (const [jti, error] of Object.entries(errors as Record<string, { err?: unknown; description?: unknown }>)) {
          const known = [...handed.values()].flat().find((h) => h.jti === jti);
          if (known === undefined) continue;
          // RFC 8936 §2.4: the receiver could not process this SET; keep it as a dead letter and move on.
          acked.add(jti);
          await outbox.deadLetter(consumer, known.event, 1, `${String(error?.err)}: ${String(error?.description ?? '')}`);
        }
        const deadline = Date.now() + (request.returnImmediately === false ? maxWaitMs : 0);
        for (;;) {
          const leases = await settle(await outbox.lease(consumer, owner, { max: outbox.partitions, leaseMs }));
          const { sets, more } = max === 0 ? { sets: {}, more: false } : await collect(leases, Math.min(max, cap));
          if (Object.keys(sets).length > 0 || max === 0 || Date.now() >= deadline) return answer(200, { sets, moreAvailable: more });
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      } catch (error) {
        return answer(500, { err: 'server_error', description: error instanceof Error ? error.message : 'poll failed' });
      }
    },
  };
}

function answer(status: number, body: unknown): SetPollResponse {
  return { status, headers: JSON_HEADERS, body: JSON.stringify(body) };
}
