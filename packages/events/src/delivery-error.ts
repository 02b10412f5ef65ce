/**
 * A delivery that failed for good: retrying cannot help (a receiver's 4xx other than 408/429, a
 * SET the receiver refused). The dispatcher dead-letters the event at once.
 */
export class PermanentDeliveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentDeliveryError';
  }
}
