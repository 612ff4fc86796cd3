/**
 * Starts the real browser host, `node bin/baton.mjs serve <dir> --port 0`, and reads the URL it
 * prints. The caller gives it its environment on top of this process's: the served fixture
 * (served.ts) gives each spec file's host a config folder of its own, so recent projects never
 * leak between files, and what else its project needs (e.g. BATON_DATA_DIR).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { RENDERER_INDEX, REPO_ROOT } from './paths';

const URL_PATTERN = /http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]+/;
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;

export interface Served {
  /** The full URL with the token, as printed. */
  readonly url: string;
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly port: number;
  readonly token: string;
  stop(): Promise<void>;
}

/** `dir` null starts the host with no project, as `baton serve` with no folder does. */
export async function serve(dir: string | null, env: NodeJS.ProcessEnv, args: readonly string[] = []): Promise<Served> {
  if (!existsSync(RENDERER_INDEX)) {
    throw new Error(`${RENDERER_INDEX} is missing: build the renderer first with \`npm run build:renderer\`.`);
  }
  const child = spawn(process.execPath, ['bin/baton.mjs', 'serve', ...(dir ? [dir] : []), '--port', '0', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));

  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`baton serve printed no URL within ${START_TIMEOUT_MS} ms. Output:\n${output}`)), START_TIMEOUT_MS);
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = URL_PATTERN.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[0]);
        }
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`baton serve exited (code ${code}, signal ${signal}) before printing a URL. Output:\n${output}`));
      });
    });
    const parsed = new URL(url);
    return {
      url,
      origin: parsed.origin,
      port: Number(parsed.port),
      token: parsed.searchParams.get('token') ?? '',
      stop: () => stopChild(child),
    };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}
