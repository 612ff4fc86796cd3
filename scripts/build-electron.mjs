// Bundles the Electron main process and the sandboxed preload to CommonJS in dist/electron.
// A sandboxed preload cannot require our modules, so it is bundled whole.
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
  external: ['electron', '@electric-sql/pglite', '@electric-sql/pglite-socket', 'pg'],
  logLevel: 'warning',
  ...importMeta,
};

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
console.log('built dist/electron/main.cjs, dist/electron/preload.cjs and dist/electron/pglite-server.mjs');
