// Bundles the Electron main process and the sandboxed preload to CommonJS in dist/electron.
// A sandboxed preload cannot require our modules, so it is bundled whole.
import { build } from 'esbuild';

const common = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', sourcemap: true, external: ['electron'], logLevel: 'warning' };

await build({ ...common, entryPoints: ['electron/app/main.ts'], outfile: 'dist/electron/main.cjs' });
await build({ ...common, entryPoints: ['electron/preload/preload.ts'], outfile: 'dist/electron/preload.cjs' });
console.log('built dist/electron/main.cjs and dist/electron/preload.cjs');
