/**
 * Test helper: one scratch folder for a whole vitest run (vitest.config.ts names this file as its
 * global setup, which makes the folder and removes it when the run ends), and `builtOnce`: a folder
 * built by the first test file of the run that needs it and reused by the others, which may be
 * running at the same moment in other workers. For set-up that is the same in several files (a real
 * project run to acceptance), so it runs once per run instead of once per file.
 */
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    batonRunScratch: string;
  }
}

/** vitest's global setup: the run's scratch folder, removed when the run ends. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'baton-vitest-run-'));
  project.provide('batonRunScratch', dir);
  return () => rm(dir, { recursive: true, force: true });
}

export interface Built {
  readonly dir: string;
  /** Whether `dir` belongs to the run (removed at its end) rather than to the caller. */
  readonly shared: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Written whole, by rename, so a waiter never reads half of it. */
async function publish(file: string, outcome: { ok: boolean; error?: string }): Promise<void> {
  await writeFile(`${file}.part`, JSON.stringify(outcome));
  await rename(`${file}.part`, file);
}

/**
 * The folder `build` fills, once per vitest run: the first caller takes a lock (mkdir, atomic
 * across processes), builds and publishes the outcome; the others wait for it, and fail with the
 * builder's error if it failed. Callers must treat the folder as read-only (copy it to change it).
 * Without the global setup (another config), the caller builds its own folder and removes it.
 */
export async function builtOnce(name: string, build: (into: string) => Promise<void>, timeoutMs: number): Promise<Built> {
  const { inject } = await import('vitest');
  const scratch = inject('batonRunScratch');
  if (!scratch) {
    const dir = await mkdtemp(join(tmpdir(), `baton-${name}-`));
    await build(dir);
    return { dir, shared: false };
  }
  const dir = join(scratch, name);
  const outcome = join(scratch, `${name}.outcome.json`);
  const mine = await mkdir(`${dir}.lock`).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return false;
      throw error;
    },
  );
  if (mine) {
    try {
      await mkdir(dir);
      await build(dir);
      await publish(outcome, { ok: true });
    } catch (error) {
      await publish(outcome, { ok: false, error: (error as Error).stack ?? String(error) });
      throw error;
    }
    return { dir, shared: true };
  }
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(250)) {
    const text = await readFile(outcome, 'utf8').catch(() => null);
    if (text === null) continue;
    const result = JSON.parse(text) as { ok: boolean; error?: string };
    if (!result.ok) throw new Error(`Building the shared ${name} failed in another test file:\n${result.error}`);
    return { dir, shared: true };
  }
  throw new Error(`Waited ${timeoutMs} ms for another test file to build the shared ${name}; it never finished.`);
}
