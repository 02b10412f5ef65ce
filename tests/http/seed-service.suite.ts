import { afterEach, beforeEach, describe } from 'vitest';
import { describeAuthentication } from './sections/authentication.js';
import { describeClients } from './sections/clients.js';
import { describeConcurrency } from './sections/concurrency.js';
import { describeDiscovery } from './sections/discovery.js';
import { describeEtags } from './sections/etags.js';
import { describeHostileInput } from './sections/hostile-input.js';
import { describeLists } from './sections/lists.js';
import { describeProtocol } from './sections/protocol.js';
import { describeRootSearch } from './sections/root-search.js';
import { describeTenancy } from './sections/tenancy.js';
import { describeUsers } from './sections/users.js';
import { serviceUnderTest, type ServiceUnderTest, type StartService, type StartedService } from './support/service-under-test.js';

export type { StartService, StartedService } from './support/service-under-test.js';

/**
 * The HTTP suite of the seed service (examples/seed-service/README.md) and the rules of docs/, against the seed service served by one
 * adapter. `start` must serve `createSeedService(options)` at `{baseUrl}` (mount path included) on
 * 127.0.0.1 and an ephemeral port; every test gets a fresh service with an empty user store.
 */
export function describeSeedService(name: string, start: StartService): void {
  describe(`seed service over ${name}`, () => {
    let started: StartedService | undefined;
    let current: ServiceUnderTest | undefined;
    beforeEach(async () => {
      started = await start();
      current = serviceUnderTest(started);
    });
    afterEach(async () => {
      await started?.close();
      started = undefined;
      current = undefined;
    });
    const service = (): ServiceUnderTest => {
      if (current === undefined) throw new Error('no service is running');
      return current;
    };

    describeUsers(service);
    describeEtags(service);
    describeLists(service);
    describeRootSearch(service);
    describeDiscovery(service);
    describeProtocol(service);
    describeHostileInput(service);
    describeConcurrency(service);
    describeClients(service);
    describeAuthentication(start);
    describeTenancy(start);
  });
}
