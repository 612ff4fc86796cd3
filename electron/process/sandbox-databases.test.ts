/**
 * A hostile neighbour's database scan (issue 31): an agent turn (the `command` adapter, a plain
 * program, agents/fixtures/neighbour-databases.mjs) keeps the network to reach its model, so it
 * tries a Postgres login on every TCP port listening on the machine and every Postgres socket it
 * can find. Two projects' branch servers run meanwhile: its own branch, a sibling branch of its own
 * project and another project's branch. It logs in to its own (the password is in its
 * DATABASE_URL) and to no Baton branch server anywhere on the machine.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandAgent } from '../agents/command-agent';
import { makeTempProvider, type TempProvider } from '../branches/pglite/pglite.fixture';
import { makeTempDir } from '../project/temp-project.fixture';
import { detectBubblewrap } from './sandbox';

const support = await detectBubblewrap();
if (!support.ok) console.warn(`sandbox-databases: skipped, bubblewrap does not work on this machine (${support.reason}): ${support.fix}.`);

const NEIGHBOUR = resolve(import.meta.dirname, '..', 'agents', 'fixtures', 'neighbour-databases.mjs');

interface Seen {
  readonly own: string;
  readonly ownPort: number;
  readonly ports: Record<string, string>;
  readonly sockets: Record<string, string>;
}

/** The port of every Baton branch server running on the machine, whoever started it (from its serve.json). */
function batonServerPorts(): number[] {
  const ports: number[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      const at = argv.findIndex((arg) => arg.endsWith('pglite-server.ts') || arg.endsWith('pglite-server.mjs') || arg.endsWith('pglite-server.js'));
      if (at < 0 || argv[at + 1] !== 'serve') continue;
      ports.push((JSON.parse(readFileSync(join(argv[at + 2]!, 'serve.json'), 'utf8')) as { port: number }).port);
    } catch {
      // gone meanwhile, or not readable: not counted
    }
  }
  return ports;
}

let mine: TempProvider;
let theirs: TempProvider;
let dir: string;
const urls: Record<'own' | 'sibling' | 'other', string> = { own: '', sibling: '', other: '' };

beforeAll(async () => {
  if (!support.ok) return;
  [mine, theirs] = await Promise.all([makeTempProvider({ poolSize: 0 }), makeTempProvider({ poolSize: 0 })]);
  await Promise.all([mine.provider.ensureRoot('main'), theirs.provider.ensureRoot('main')]);
  dir = await makeTempDir('baton-sandbox-databases-');
  await mine.provider.create('own', 'main');
  await mine.provider.create('sibling', 'main');
  await theirs.provider.create('other', 'main');
  urls.own = await mine.provider.connectionUrl('own');
  urls.sibling = await mine.provider.connectionUrl('sibling');
  urls.other = await theirs.provider.connectionUrl('other');
}, 120_000);
afterAll(async () => {
  await mine?.dispose();
  await theirs?.dispose();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!support.ok)('a hostile neighbour reaches no database but its own', () => {
  it('an agent turn that tries every port and socket on the machine logs in to its own branch only', async () => {
    const worktree = join(dir, 'worktree');
    await mkdir(worktree, { recursive: true });
    const turn = await commandAgent({ config: { adapter: 'command', command: [process.execPath, NEIGHBOUR] }, sandbox: 'required' }).turn({
      role: 'driver',
      step: 'green',
      item: 'T1',
      attempt: 1,
      worktree,
      prompt: 'look around',
      failure: null,
      env: { DATABASE_URL: urls.own },
    });
    expect(turn.exitCode, turn.transcript).toBe(0);
    const seen = JSON.parse(await readFile(join(worktree, 'seen.json'), 'utf8')) as Seen;
    const portOf = (url: string) => String(new URL(url).port);

    expect(seen.own).toBe('logged in');
    expect(seen.ownPort).toBe(Number(portOf(urls.own)));
    // The scan found the three servers (the turn shares the machine's loopback) and logged in to none without the password.
    for (const key of ['own', 'sibling', 'other'] as const) expect(seen.ports[portOf(urls[key])], key).toBe('password asked');
    // Nor to any other Baton branch server on the machine (other test files', other projects').
    const reached = Object.entries(seen.ports)
      .filter(([, outcome]) => outcome === 'logged in')
      .map(([port]) => Number(port));
    const baton = batonServerPorts();
    expect(baton).toEqual(expect.arrayContaining([urls.own, urls.sibling, urls.other].map((u) => Number(portOf(u)))));
    expect(reached.filter((port) => baton.includes(port))).toEqual([]);
    // No Postgres Unix socket outside the sandbox is there to connect to.
    expect(Object.values(seen.sockets).filter((outcome) => outcome === 'logged in')).toEqual([]);
  }, 120_000);
});
