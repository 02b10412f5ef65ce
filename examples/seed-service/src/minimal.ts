// The "Using the library" sample of the repository README, as a file that runs:
// `npx tsx examples/seed-service/src/minimal.ts` serves http://localhost:8080/scim/v2.
import { createScimServer, createMemoryStore, userResourceType } from '@scimkit/core';
import { createNodeHandler } from '@scimkit/node';
import { createServer } from 'node:http';

const scim = createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore() });
createServer(createNodeHandler(scim, { basePath: '/scim/v2' })).listen(8080);
