// A Next.js App Router route handler: app/scim/v2/[[...path]]/route.ts serves /scim/v2 and everything below.
import { createMemoryStore, createScimServer, userResourceType } from '@scimkit/core';
import { createFetchHandler } from '@scimkit/fetch';

const scim = createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore() });
const handler = createFetchHandler(scim, { basePath: '/scim/v2' });

export const GET = handler;
export const POST = handler;
export const PUT = handler;
export const PATCH = handler;
export const DELETE = handler;
