/**
 * The project watcher on a real folder: a change anywhere under it (a new file deep in a folder made
 * after the watch began) refreshes once per burst, never two refreshes at once, and once more when a
 * change lands during a refresh; nothing after close.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchProject, type ProjectWatch } from './project-watch';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits until `check` holds, up to `ms`. */
async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await sleep(20);
  }
}

let dir: string;
let watcher: ProjectWatch | null = null;
afterEach(async () => {
  watcher?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('watchProject', () => {
  it('refreshes once for a burst of changes, deep folders made later included', async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-watch-'));
    let refreshes = 0;
    watcher = watchProject(dir, async () => void (refreshes += 1), { debounceMs: 100, minIntervalMs: 0 });
    await mkdir(join(dir, 'features', 'F-1', 'stories'), { recursive: true });
    for (let i = 0; i < 5; i++) await writeFile(join(dir, 'features', 'F-1', 'stories', `S-${i}.json`), '{}');
    await until(() => refreshes === 1);
    await sleep(300);
    expect(refreshes).toBe(1);
    await writeFile(join(dir, 'features', 'F-1', 'stories', 'S-0.json'), '{"changed":true}');
    await until(() => refreshes === 2);
    watcher.close();
    await writeFile(join(dir, 'late.json'), '{}');
    await sleep(300);
    expect(refreshes).toBe(2);
  });

  it('never runs two refreshes at once, and refreshes again after a change made during one', async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-watch-'));
    let inside = 0;
    let most = 0;
    let refreshes = 0;
    let release: (() => void) | null = null;
    watcher = watchProject(
      dir,
      async () => {
        inside += 1;
        most = Math.max(most, inside);
        refreshes += 1;
        if (refreshes === 1) await new Promise<void>((resolve) => (release = resolve));
        inside -= 1;
      },
      { debounceMs: 50, minIntervalMs: 0 },
    );
    await writeFile(join(dir, 'a.json'), '1');
    await until(() => refreshes === 1);
    // Changed while the first refresh is still reading: one more refresh follows it, not one beside it.
    await writeFile(join(dir, 'b.json'), '2');
    await sleep(200);
    expect(refreshes).toBe(1);
    release!();
    await until(() => refreshes === 2);
    expect(most).toBe(1);
  });

  it('refreshes at most once per interval while changes keep coming (a run writing its ledger)', async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-watch-'));
    const starts: number[] = [];
    watcher = watchProject(dir, async () => void starts.push(Date.now()), { debounceMs: 20, minIntervalMs: 400 });
    const end = Date.now() + 1_300;
    for (let i = 0; Date.now() < end; i++) {
      await writeFile(join(dir, 'events.jsonl'), String(i));
      await sleep(30);
    }
    await sleep(600);
    expect(starts.length).toBeGreaterThanOrEqual(2);
    expect(starts.length).toBeLessThanOrEqual(5);
    for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(390);
  });
});
