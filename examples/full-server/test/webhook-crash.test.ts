import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { crashAndRestart } from './webhook-crash.js';

const directory = mkdtempSync(join(tmpdir(), 'scimkit-webhook-crash-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('full server with SCIM_WEBHOOK_URL on PGlite', () => {
  it('an event acknowledged but not delivered when the process is killed (-9) is delivered after the restart, signed', async () => {
    await crashAndRestart(`pglite:${directory}`);
  }, 120_000);
});
