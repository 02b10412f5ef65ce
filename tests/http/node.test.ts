import { createNodeHandler } from '@scimkit/node';
import { createSeedService } from '../../examples/seed-service/src/index.js';
import { describeGroups } from './groups.suite.js';
import { describeSeedService } from './seed-service.suite.js';
import { serveAtScimV2 } from './support/serve-at-scim-v2.js';

describeSeedService('@scimkit/node', (options) => serveAtScimV2(createNodeHandler(createSeedService(options), { basePath: '/scim/v2' })));

describeGroups('@scimkit/node', (scim) => serveAtScimV2(createNodeHandler(scim, { basePath: '/scim/v2' })));
