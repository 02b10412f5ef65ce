import type { RequestListener } from 'node:http';
import { listen } from '../../adapter-support/listen.js';
import type { StartedService } from './service-under-test.js';

/** Serves `listener` on an ephemeral port of 127.0.0.1, as a SCIM service mounted at `/scim/v2`. */
export async function serveAtScimV2(listener: RequestListener): Promise<StartedService> {
  const listening = await listen(listener);
  return { baseUrl: `${listening.origin}/scim/v2`, close: listening.close };
}
