/** `baton serve [dir] [--port N]`: the workbench in a browser, on 127.0.0.1, behind a per-run token. */
import { existsSync } from 'node:fs';
import { rendererDir } from '../../core/host-defaults';
import { hostSessions } from '../core';
import { flag, JSON_OPTION, list, text, type Command } from '../command';
import { MAX_PER_CLIENT, OWNER } from '../../host/limits';
import { EXIT, UsageError } from '../exit-codes';
import { printError, printJson } from '../io';
import { closeSession } from '../open-project';

const RENDERER_DIR = rendererDir();

export const serveCommand: Command = {
  name: 'serve',
  synopsis: 'serve [dir|bundle] [--port N] [--idle-timeout SECONDS] [--person NAME]... [--json]',
  summary: 'The workbench in your browser on 127.0.0.1 (token-protected URL)',
  options: { ...JSON_OPTION, port: { type: 'string' }, 'idle-timeout': { type: 'string' }, person: { type: 'string', multiple: true } },
  async run(positionals, values, io) {
    const [dir, ...extra] = positionals;
    if (extra.length) throw new UsageError(`serve takes at most one folder: baton ${this.synopsis}`);
    const json = flag(values, 'json');
    const port = parsePort(text(values, 'port'));
    const idle = parseIdle(text(values, 'idle-timeout'));
    const people = parsePeople(list(values, 'person'));
    if (!existsSync(`${RENDERER_DIR}/index.html`)) {
      const message = `the renderer is not built (${RENDERER_DIR} is missing). Run \`npm run build\` in the Baton folder, then try again.`;
      printError(io, { code: 'not-built', message }, json);
      return EXIT.problems;
    }
    const { hostDefaults, hostSession } = await hostSessions();
    // The one import of another host (eslint.config.js says why): `baton serve` is how the browser host starts.
    const { startHost } = await import('../../host/server');
    const session = hostSession(hostDefaults('browser'));
    const { workbench } = session;
    if (dir) {
      const opened = await session.call('project:open', { path: dir });
      if (!opened.ok) {
        await closeSession(session, io);
        printError(io, opened.error, json);
        return EXIT.problems;
      }
    }
    let host;
    try {
      host = await startHost({ workbench, handlers: session.handlers, staticDir: RENDERER_DIR, port, people, ...(idle ? { idleTimeoutMs: idle } : {}) });
    } catch (cause) {
      await closeSession(session, io);
      const code = (cause as NodeJS.ErrnoException).code;
      const message =
        code === 'EADDRINUSE'
          ? `port ${port} on 127.0.0.1 is already in use. Pick another with --port N, or --port 0 for any free port.`
          : `could not start the browser host: ${(cause as Error).message}`;
      printError(io, { code: 'listen-failed', message }, json);
      return EXIT.problems;
    }
    // Listen for the stop signals before saying how to stop: a pipe write is synchronous, so
    // whoever reads the message may send Ctrl+C before the next statement runs.
    const stopped = new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    const project = workbench.project;
    const shown = project ? (project.bundle ?? project.root) : null;
    if (json) printJson(io, { url: host.url, port: host.port, project: shown, people: host.people });
    else {
      io.out(`Baton is serving ${shown ?? '(no project yet)'} at ${host.url}`);
      for (const person of host.people) io.out(`  ${person.name}'s own URL: ${person.url}`);
      io.out('Open that URL in a browser on this machine. Press Ctrl+C to stop.');
      if (host.people.length) io.out(`Give each person their own URL: each holds at most ${MAX_PER_CLIENT} connections, and nobody's tabs lock another out.`);
    }
    await stopped;
    await host.close();
    await closeSession(session, io);
    return EXIT.ok;
  },
};

/** `--idle-timeout SECONDS`: a WebSocket connection that sends nothing this long is closed (the page reconnects when used). */
function parseIdle(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  const seconds = /^\d{1,7}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(seconds) || seconds < 1) throw new UsageError(`--idle-timeout takes whole seconds, at least 1 (default 900); got "${raw}".`);
  return seconds * 1000;
}

/** `--person NAME`: a URL of that person's own; names are 1–40 letters, digits, spaces, `.`, `_` or `-`, distinct, never "owner". */
export function parsePeople(names: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const name of names) {
    if (!/^[\p{L}\p{N}][\p{L}\p{N} ._-]{0,39}$/u.test(name))
      throw new UsageError(`--person takes a name of 1–40 letters, digits, spaces, ".", "_" or "-", starting with a letter or digit; got "${name}".`);
    const key = name.toLowerCase();
    if (key === OWNER) throw new UsageError(`--person cannot be "${name}": that name is the URL \`baton serve\` prints for you. Pick another.`);
    if (seen.has(key)) throw new UsageError(`--person "${name}" is given twice: each person gets one URL.`);
    seen.add(key);
  }
  return [...names];
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined) return 0;
  // Digits only: Number('') is 0 (an unset $PORT would silently pick a random port) and Number('0x50') is 80.
  const port = /^\d{1,5}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--port must be a whole number from 0 to 65535 (0 picks a free port); got "${raw}".`);
  }
  return port;
}
