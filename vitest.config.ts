import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The files that run whole features (a minute or more each on two cores), longest first. They
 * start first, so the short files fill the other workers around them and no worker is left
 * running one alone at the end; without vitest's cache (a fresh clone, CI) it would order them
 * by file size, which puts the two longest last.
 */
const LONGEST_FIRST = [
  'electron/eval/eval-cli.test.ts',
  'electron/cli/agents.test.ts',
  'electron/cli/demo.test.ts',
  'electron/cli/ship-postgres.test.ts',
  'electron/engine/real-agents.test.ts',
  'electron/engine/resume.test.ts',
  'electron/engine/adversarial/group-4.test.ts',
  'electron/cli/tamper-signed.test.ts',
  'electron/engine/adversarial/group-1.test.ts',
  'electron/engine/adversarial/group-2.test.ts',
  'electron/engine/adversarial/group-3.test.ts',
  'electron/engine/adversarial/group-6.test.ts',
  'electron/engine/adversarial/group-7.test.ts',
  'electron/branches/pglite/pglite-lifecycle.test.ts',
  'electron/engine/dependencies.test.ts',
  'electron/engine/run-lock.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification): number => {
      const at = LONGEST_FIRST.indexOf(relative(file.project.config.root, file.moduleId).replaceAll('\\', '/'));
      return at < 0 ? LONGEST_FIRST.length : at;
    };
    // The rest keep vitest's order (failed first, then longest by its cache, else largest).
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ['shared/**/*.test.ts', 'electron/**/*.test.ts', 'renderer/**/*.test.ts', 'bench/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    // Two workers on two cores (and whatever else runs there): removing a file's PGlite folders in
    // afterAll took over vitest's default 10 s in real-agents.test.ts at load 15.
    hookTimeout: 60_000,
    // The run's scratch folder, where set-up shared by several files is built once (builtOnce).
    globalSetup: ['electron/platform/run-scratch.fixture.ts'],
    // Most of the suite's time is spent waiting on child processes (git, node:test, PGlite servers,
    // the CLI), so every core runs a file: two workers on a two-core machine, not vitest's one.
    // Files run in their own processes (forks): several mutate process.env for the CLI in-process.
    pool: 'forks',
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: LongestFirst },
  },
});
