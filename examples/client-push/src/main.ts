import { readFile } from 'node:fs/promises';
import { clientCredentialsAuth, createScimClient, type AuthProvider } from '@scimkit/client';
import { pushUsers, type Person } from './push-users.js';

/**
 * `node dist/main.js people.json`: pushes the people of a JSON file to the SCIM service at
 * SCIM_URL, authenticated with SCIM_TOKEN, or with OAuth client credentials (SCIM_TOKEN_URL,
 * SCIM_CLIENT_ID, SCIM_CLIENT_SECRET, optional SCIM_SCOPE).
 */
const [file] = process.argv.slice(2);
const baseUrl = process.env['SCIM_URL'];
if (file === undefined || baseUrl === undefined) {
  console.error('Usage: SCIM_URL=https://…/scim/v2 SCIM_TOKEN=… node dist/main.js people.json');
  process.exit(2);
}

function auth(): AuthProvider | string | undefined {
  const tokenUrl = process.env['SCIM_TOKEN_URL'];
  if (tokenUrl !== undefined) {
    return clientCredentialsAuth({
      tokenUrl,
      clientId: process.env['SCIM_CLIENT_ID'] ?? '',
      clientSecret: process.env['SCIM_CLIENT_SECRET'] ?? '',
      ...(process.env['SCIM_SCOPE'] === undefined ? {} : { scope: process.env['SCIM_SCOPE'] }),
    });
  }
  return process.env['SCIM_TOKEN'];
}

const given = auth();
const client = createScimClient({ baseUrl, ...(given === undefined ? {} : { auth: given }), timeoutMs: 15_000 });
const people = JSON.parse(await readFile(file, 'utf8')) as Person[];
console.log(await pushUsers(client, people));
