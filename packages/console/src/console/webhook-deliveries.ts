/**
 * What the console's Webhooks page reads and does (docs/concepts/console.md, "Webhook deliveries"):
 * one consumer's deliveries per tenant, newest first, with their attempts, the dead letters, and
 * redelivery. `@scimkit/events`' `createDeliveryLog().view(...)` is one; the console depends on
 * this shape only, not on the events package.
 */
export interface ConsoleDeliveries {
  deliveries(tenant: string, options?: { readonly state?: ConsoleDeliveryState; readonly limit?: number }): Promise<readonly ConsoleDelivery[]>;
  delivery(tenant: string, eventId: string): Promise<ConsoleDelivery | undefined>;
  deadLetters(tenant: string, limit?: number): Promise<readonly ConsoleDeadLetter[]>;
  redeliver(tenant: string, eventId: string): Promise<{ readonly ok: boolean; readonly message: string }>;
}

export type ConsoleDeliveryState = 'delivered' | 'failing' | 'dead';

export interface ConsoleDelivery {
  readonly eventId: string;
  readonly type: string;
  readonly tenant: string;
  readonly resourceType: string;
  readonly resourceId: string;
  readonly time: string;
  readonly state: ConsoleDeliveryState;
  readonly attempts: readonly ConsoleDeliveryAttempt[];
  readonly attemptCount: number;
}

export interface ConsoleDeliveryAttempt {
  readonly at: string;
  readonly durationMs: number;
  readonly ok: boolean;
  readonly status?: number;
  readonly error?: string;
  readonly redelivery?: boolean;
}

export interface ConsoleDeadLetter {
  readonly eventId: string;
  readonly type: string;
  readonly tenant: string;
  readonly resourceType: string;
  readonly resourceId: string;
  readonly time: string;
  readonly at: string;
  readonly attempts: number;
  readonly error: string;
}
