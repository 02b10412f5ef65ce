import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { dirname, join, basename } from 'node:path';

/**
 * Replace `file` with `bytes` so that a crash at any moment (power loss, `kill -9`) leaves either
 * the old file or the new one, never a torn or empty one: write a temporary file beside it, flush
 * it to disk (fsync), rename it over `file` (atomic on POSIX file systems), then flush the
 * directory so the rename itself survives a power loss.
 */
export async function saveDatabase(file: string, bytes: Uint8Array): Promise<void> {
  const directory = dirname(file);
  const temporary = join(directory, `.${basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temporary, 'wx', 0o600);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await syncDirectory(directory);
}

async function syncDirectory(directory: string): Promise<void> {
  // Some platforms (Windows) cannot open a directory; the rename is then as durable as they make it.
  const handle = await open(directory, 'r').catch(() => undefined);
  if (handle === undefined) return;
  try {
    await handle.sync().catch(() => undefined);
  } finally {
    await handle.close();
  }
}

/**
 * Saves of one database, one at a time: `save()` resolves once a snapshot taken after the call
 * is on disk. Calls made while a save runs share the next one, so a burst of changes costs two
 * writes, not one per change, and two writes never race for the same file.
 */
export function databaseSaver(file: string, snapshot: () => Uint8Array): () => Promise<void> {
  let running: Promise<void> | undefined;
  let queued: Promise<void> | undefined;
  const run = (): Promise<void> => {
    const current = saveDatabase(file, snapshot()).finally(() => {
      if (running === current) running = undefined;
    });
    running = current;
    return current;
  };
  return () => {
    if (queued !== undefined) return queued;
    if (running === undefined) return run();
    const next = running
      .catch(() => undefined)
      .then(() => {
        queued = undefined;
        return run();
      });
    queued = next;
    return next;
  };
}
