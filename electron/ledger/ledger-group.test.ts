/**
 * Group commit (ledger-group.ts): the same chain, byte for byte, with one fsync of events.jsonl per
 * group; every record on the file while the group is open; a writer killed inside a group leaves a
 * chain that reads and verifies; a group cut short by a torn write is repaired like any torn tail.
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Ledger } from './ledger';
import { makeTempLedger, ORCHESTRATOR, PERSON, removeTemp, tickingClock, type TempLedger } from './temp-ledger.fixture';
import { verifyChain } from './verify-chain';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '../..');

/** Five appends, some with blobs (one shared by two records), as a cycle step makes them. */
const appendFive = async (ledger: Ledger) => {
  const out = [];
  for (let i = 1; i <= 5; i++)
    out.push(
      await ledger.append({
        type: 'group.append',
        actor: ORCHESTRATOR,
        subject: { feature: 'F-1', item: 'T1' },
        data: { i },
        blobs:
          i % 2
            ? [
                { name: 'runner/stdout.txt', content: `run ${i}\n` },
                { name: 'same', content: 'shared blob' },
              ]
            : [],
      }),
    );
  return out;
};

/** Counts fsyncs of events.jsonl (by the handle's inode), leaving every other fsync alone. */
const countEventSyncs = async (events: string) => {
  const probe = await fs.open(events, 'r');
  const proto = Object.getPrototypeOf(probe) as { sync: () => Promise<void> };
  await probe.close();
  const original = proto.sync;
  let count = 0;
  const { ino } = await fs.stat(events);
  const spy = vi.spyOn(proto, 'sync').mockImplementation(async function (this: fs.FileHandle) {
    if ((await this.stat()).ino === ino) count++;
    return original.call(this);
  });
  return { count: () => count, restore: () => spy.mockRestore() };
};

let t: TempLedger;
let other: TempLedger;
beforeEach(async () => {
  t = await makeTempLedger();
  other = await makeTempLedger();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await removeTemp(t.root);
  await removeTemp(other.root);
});

describe('a group commit', () => {
  it('writes the same chain, byte for byte, as the same appends one by one, and it verifies', async () => {
    const alone = await appendFive(new Ledger(t.dir, { now: tickingClock() }));
    const grouped = new Ledger(other.dir, { now: tickingClock() });
    const inGroup = await grouped.group(() => appendFive(grouped));
    expect(inGroup).toEqual(alone);
    expect(await fs.readFile(other.events)).toEqual(await fs.readFile(t.events));
    expect(await verifyChain(other.dir)).toMatchObject({ records: 5, head: alone[4]!.hash, chain: { ok: true }, problems: [] });
  });

  it('puts every record on the file while the group is open, and fsyncs events.jsonl once for all of them', async () => {
    await t.ledger.append({ type: 'first', actor: ORCHESTRATOR }); // the file exists: its creation is synced at once
    const syncs = await countEventSyncs(t.events);
    await t.ledger.group(async () => {
      await appendFive(t.ledger);
      // Another reader (another Ledger, as another process would) sees them before the group ends.
      expect((await new Ledger(t.dir).read()).records).toHaveLength(6);
      expect(syncs.count()).toBe(0);
    });
    expect(syncs.count()).toBe(1);
    await appendFive(t.ledger);
    expect(syncs.count()).toBe(6);
    syncs.restore();
  });

  it('syncs early on request, joins an outer group, and commits what it wrote when its work throws', async () => {
    await t.ledger.append({ type: 'first', actor: ORCHESTRATOR });
    const syncs = await countEventSyncs(t.events);
    const failing = t.ledger.group(async () => {
      await t.ledger.append({ type: 'a', actor: ORCHESTRATOR });
      await t.ledger.sync(); // before a git commit names the record
      expect(syncs.count()).toBe(1);
      await t.ledger.sync(); // nothing new: no fsync
      await t.ledger.group(() => t.ledger.append({ type: 'b', actor: ORCHESTRATOR })); // joins: no fsync of its own
      expect(syncs.count()).toBe(1);
      throw new Error('the step failed');
    });
    await expect(failing).rejects.toThrow('the step failed');
    expect(syncs.count()).toBe(2);
    syncs.restore();
    expect((await new Ledger(t.dir).read()).records.map((r) => r.type)).toEqual(['first', 'a', 'b']);
    expect(await verifyChain(t.dir)).toMatchObject({ records: 3, chain: { ok: true }, problems: [] });
  });

  it('leaves a chain that reads and verifies when its writer is killed inside the group', async () => {
    const writer = `
const { Ledger } = await import(${JSON.stringify(pathToFileURL(path.join(HERE, 'ledger.ts')).href)});
const ledger = new Ledger(process.env.LEDGER_DIR);
await ledger.group(async () => {
  for (let i = 1; i <= 3; i++) await ledger.append({ type: 'child.step', actor: { kind: 'orchestrator', id: 'child' }, data: { i }, blobs: [{ name: 'out', content: 'output ' + i }] });
  process.kill(process.pid, 'SIGKILL');
});
`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', writer], { cwd: REPO, env: { ...process.env, LEDGER_DIR: t.dir } });
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, sig) => resolve(sig)));
    expect(signal).toBe('SIGKILL');
    const read = await new Ledger(t.dir).read();
    expect(read).toMatchObject({ problems: [], tornTail: null });
    expect(read.records.map((r) => r.data)).toEqual([{ i: 1 }, { i: 2 }, { i: 3 }]);
    expect(await verifyChain(t.dir)).toMatchObject({ records: 3, chain: { ok: true }, problems: [] });
    // The chain goes on from the killed writer's last record.
    const next = await new Ledger(t.dir).append({ type: 'after', actor: PERSON });
    expect(next).toMatchObject({ seq: 4, prev: read.records[2]!.hash });
  });

  it('cut short by a torn last write, reads as its whole records plus a torn tail that repairTail drops', async () => {
    const records = await t.ledger.group(async () => {
      const made = await appendFive(t.ledger);
      await fs.appendFile(t.events, '{"seq":6,"at":"2025-'); // the group's next write, cut short by a power loss
      return made;
    });
    const read = await new Ledger(t.dir).read();
    expect(read.records).toEqual(records);
    expect(read.tornTail).toMatchObject({ bytes: 20 });
    await new Ledger(t.dir).repairTail(PERSON);
    expect(await verifyChain(t.dir)).toMatchObject({ records: 6, chain: { ok: true }, problems: [] });
  });
});
