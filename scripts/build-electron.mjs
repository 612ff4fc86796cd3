// Bundles the Electron main process and the sandboxed preload to CommonJS in dist/electron.
// A sandboxed preload cannot require our modules, so it is bundled whole.
import { rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

// CommonJS has no import.meta: give bundled modules the bundle's own file URL instead.
const importMeta = {
  banner: { js: "const __bundle_url = require('node:url').pathToFileURL(__filename).href;" },
  define: { 'import.meta.url': '__bundle_url' },
};
const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: true,
  // typescript: the tell scan's parser (electron/agents/tell-scan.ts), one 9 MB file loaded only when
  // a cycle runs — kept out of every bundle and required from the dependencies as it is.
  external: ['electron', '@electric-sql/pglite', '@electric-sql/pglite-socket', 'pg', 'typescript'],
  logLevel: 'warning',
  ...importMeta,
};

// Chunk names change with their content: start the CLI's folder empty so no stale chunk lingers.
rmSync('dist/cli', { recursive: true, force: true });
await build({ ...common, entryPoints: ['electron/app/main.ts'], outfile: 'dist/electron/main.cjs' });
await build({ ...common, entryPoints: ['electron/preload/preload.ts'], outfile: 'dist/electron/preload.cjs' });
// The embedded database's server process, started once per served branch: precompiled so a start
// costs no TypeScript transform (server-process.ts falls back to tsx when this file is missing or stale).
await build({
  ...common,
  banner: {},
  define: {},
  format: 'esm',
  entryPoints: ['electron/branches/pglite/pglite-server.ts'],
  outfile: 'dist/electron/pglite-server.mjs',
  external: ['electron', '@electric-sql/pglite', '@electric-sql/pglite-socket'],
});
// The `baton` command (bin/baton.mjs loads it; tsx only when a source is newer). ESM split in chunks:
// each command loads the core through a dynamic import (electron/cli/core.ts), so `baton --help`
// parses only the command table. Dependencies are bundled (one parse beats resolving hundreds of
// files); the embedded database keeps its own files for its wasm and data.
await build({
  ...common,
  banner: {
    js: "import { createRequire as __baton_require } from 'node:module'; const require = __baton_require(import.meta.url);",
  },
  define: {},
  format: 'esm',
  splitting: true,
  minify: true,
  entryPoints: { main: 'electron/cli/main.ts' },
  outdir: 'dist/cli',
  chunkNames: 'chunk-[hash]',
  outExtension: { '.js': '.mjs' },
  metafile: true,
}).then(({ metafile }) =>
  writeFileSync('dist/cli/sources.json', `${JSON.stringify(Object.keys(metafile.inputs).filter((file) => !file.startsWith('node_modules/')))}\n`),
);
console.log('built dist/electron/main.cjs, dist/electron/preload.cjs, dist/electron/pglite-server.mjs and dist/cli/');
