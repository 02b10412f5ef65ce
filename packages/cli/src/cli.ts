/** The `scimkit` command (docs/check.md). */
import { main } from './main.js';

// `scimkit check … | head`: once the reader has gone, what is left is not shown (no EPIPE crash),
// but the run goes on to its clean-up, so that nothing it created stays on the server.
let readerGone = false;
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  readerGone = true;
});

main(process.argv.slice(2), {
  stdout: (text) => {
    if (!readerGone) process.stdout.write(text);
  },
  stderr: (text) => process.stderr.write(text),
  tty: process.stdout.isTTY === true,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`scimkit: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 2;
  },
);
