/**
 * The sandbox a test run gets: bubblewrap (per the `sandbox` setting) with only the run folder and
 * its scratch writable and, unless `testNetwork` is `shared`, no network — its database through a
 * Unix-socket bridge (db-bridge.ts). Without a cut (no bubblewrap, a bubblewrap that cannot unshare
 * the network, a database on another machine) the run keeps the host's network and its own URL,
 * and the sandbox note says which.
 */
import { bridgeDatabase, type DatabaseBridge } from '../process/db-bridge';
import { openSandbox, type Placed, type Sandbox, type SandboxSetting } from '../process/sandbox';

export interface RunSandbox {
  readonly sandbox: Sandbox;
  /** The run's environment with DATABASE_URL pointing through the bridge when the network is cut. */
  readonly env: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

export async function openRunSandbox(
  setting: SandboxSetting | undefined,
  network: 'cut' | 'shared' | undefined,
  writable: readonly string[],
  seen: { readonly hide: readonly string[]; readonly readOnly?: readonly string[] | undefined; readonly placed?: readonly Placed[] },
  env: Readonly<Record<string, string>>,
  pidShift = 0,
): Promise<RunSandbox> {
  const url = env.DATABASE_URL;
  let bridge: DatabaseBridge | null = null;
  let remote = false;
  if ((network ?? 'cut') === 'cut' && setting !== 'off' && url) {
    bridge = await bridgeDatabase(url);
    remote = bridge === null;
  }
  const cut = (network ?? 'cut') === 'cut' && !remote;
  const sandbox = await openSandbox(setting, [...writable, ...(bridge ? [bridge.dir] : [])], {
    hide: seen.hide,
    readOnly: seen.readOnly ?? [],
    placed: seen.placed ?? [],
    network: cut ? 'cut' : 'shared',
    pidShift,
  });
  if (!sandbox.netCut && bridge) {
    await bridge.close();
    bridge = null;
  }
  const note = remote && sandbox.active ? `${sandbox.note}; network shared (the test database is not on this machine)` : sandbox.note;
  const open = bridge;
  return {
    sandbox: { ...sandbox, note },
    env: open ? { ...env, DATABASE_URL: open.url } : env,
    close: async () => {
      await open?.close();
    },
  };
}
