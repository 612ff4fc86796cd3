#!/usr/bin/env node
// The `baton` command: the bundle `npm run build` writes, or the TypeScript through tsx when a
// source is newer than it (bin/cli-entry.mjs says which).
import { fileURLToPath } from 'node:url';
import { cliEntry, exitWhenLingering } from './cli-entry.mjs';

// A reader that stops early (`baton log | head`) closes the pipe: that is the reader's choice, not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}
let main;
if (cliEntry(fileURLToPath(new URL('..', import.meta.url))) === 'bundle') ({ main } = await import('../dist/cli/main.mjs'));
else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../electron/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
exitWhenLingering();
