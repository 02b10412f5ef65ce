import type { SeedServiceOptions } from '../../../examples/seed-service/src/index.js';
import { scimClient, type ScimClient } from './scim-client.js';

/** A running seed service behind some adapter. */
export interface StartedService {
  /** Absolute base URL including the mount path, e.g. `http://127.0.0.1:54321/scim/v2`. */
  readonly baseUrl: string;
  close(): Promise<void>;
}

/** Start a fresh seed service (empty user store) on an ephemeral port. */
export type StartService = (options?: SeedServiceOptions) => Promise<StartedService>;

/** What a test section reads: the service started for the current test. */
export interface ServiceUnderTest {
  readonly baseUrl: string;
  readonly client: ScimClient;
}

export type Current = () => ServiceUnderTest;

export function serviceUnderTest(started: StartedService): ServiceUnderTest {
  return { baseUrl: started.baseUrl, client: scimClient(started.baseUrl) };
}
