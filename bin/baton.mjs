#!/usr/bin/env node
// The `baton` command. The CLI is TypeScript run through tsx, so it needs no build step.
import { register } from 'tsx/esm/api';

register();
// A reader that stops early (`baton log | head`) closes the pipe: that is the reader's choice, not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}
const { main } = await import('../electron/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
