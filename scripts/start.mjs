// `npm start`: the desktop app where Electron's binary exists, otherwise the browser host.
// Usage: npm start [-- <project-dir>]. Without a project it opens a fresh copy of the demo
// (resources/demo), ready for Run.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { electronBinary } from './electron-binary.mjs';

const args = process.argv.slice(2);
if (args.length === 0) {
  const demo = JSON.parse(
    execFileSync(process.execPath, ['bin/baton.mjs', 'demo', '--no-run', '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }),
  );
  console.log(`Opening the demo project at ${demo.project} (press Run to watch the enforced loop).`);
  args.push(demo.project);
}
if (!existsSync('dist/renderer/index.html') || !existsSync('dist/electron/main.cjs')) {
  console.error('Baton is not built yet: run `npm run build` (npm ci runs it for you), then `npm start`.');
  process.exit(1);
}
const { path, reason } = electronBinary();
const [command, commandArgs] = path ? [path, ['.', ...args]] : [process.execPath, ['bin/baton.mjs', 'serve', ...args]];
if (!path) console.log(`${reason}: opening the browser host`);
const child = spawn(command, commandArgs, { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
