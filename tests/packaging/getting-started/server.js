import { createMemoryStore, createScimServer, userResourceType } from '@scimkit/core';
import { createScimRouter } from '@scimkit/express';
import express from 'express';

const scim = createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore() });

const app = express();
app.use('/scim/v2', createScimRouter(scim));
app.listen(8080, '127.0.0.1', () => console.log('SCIM at http://127.0.0.1:8080/scim/v2'));
