/**
 * Leases: a running cycle holds one on every branch pair it uses, so `baton branch gc` and
 * `delete` leave that pair alone. A lease is a file under `<dataDir>/leases/` naming the pair, the
 * holder and the process; a lease whose process no longer runs on this host is stale and ignored
 * (a crashed cycle must not pin a branch forever).
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pidAlive } from '../platform/fs-facts';

export interface Lease {
  readonly name: string;
  readonly holder: string;
  readonly pid: number;
  readonly host: string;
  readonly at: string;
  readonly file: string;
}

const leasesDir = (dataDir: string) => path.join(dataDir, 'leases');

/** Takes a lease on pair `name` for `holder` (e.g. `cycle F-1/S-2/T3`); call the result to release it. */
export async function acquireLease(dataDir: string, name: string, holder: string): Promise<() => Promise<void>> {
  const dir = leasesDir(dataDir);
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, `${name}.${process.pid}-${randomBytes(4).toString('hex')}.json`);
  const lease = { name, holder, pid: process.pid, host: os.hostname(), at: new Date().toISOString() };
  await fs.writeFile(file, JSON.stringify(lease) + '\n', { flag: 'wx' });
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    await fs.rm(file, { force: true });
  };
}

/** Live leases; stale ones (their process is gone) are removed on the way. */
export async function activeLeases(dataDir: string): Promise<Lease[]> {
  const dir = leasesDir(dataDir);
  const files = await fs.readdir(dir).catch((error: { code?: string }) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  const live: Lease[] = [];
  for (const base of files.filter((f) => f.endsWith('.json'))) {
    const file = path.join(dir, base);
    const lease = await readLease(file);
    if (lease === null) continue;
    // Another host's process cannot be checked from here: its lease counts as live.
    if (lease.host === os.hostname() && !pidAlive(lease.pid)) {
      await fs.rm(file, { force: true });
      continue;
    }
    live.push(lease);
  }
  return live;
}

async function readLease(file: string): Promise<Lease | null> {
  try {
    const raw = JSON.parse(await fs.readFile(file, 'utf8')) as Partial<Lease>;
    if (typeof raw.name !== 'string' || typeof raw.pid !== 'number' || !Number.isInteger(raw.pid)) return null;
    return { name: raw.name, holder: String(raw.holder ?? ''), pid: raw.pid, host: String(raw.host ?? os.hostname()), at: String(raw.at ?? ''), file };
  } catch {
    // Half-written (a writer between open and write) or removed meanwhile: not a lease yet.
    return null;
  }
}
