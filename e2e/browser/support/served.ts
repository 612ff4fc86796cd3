/**
 * The one fixture every browser spec gets its project from: a project made by a source (a folder
 * of e2e/fixtures, a fresh Baton project, the demo, ...) in a scratch folder, `baton serve` of it,
 * and a page opened on it with its token; the host stopped and the scratch folder removed after.
 *
 *   const test = serving(batonProject({ features: ['F-1', 'F-2'] }));
 *   test('...', async ({ servedPage: page, project, served }) => { ... });
 *
 * `project` and `served` are worker fixtures: made once for the spec file, as a beforeAll would.
 * serving() sets the file's source with test.use, which gives the file a worker of its own, so no
 * two files share a host; a failed test's worker is replaced, and the tests after it get a fresh
 * project and host. So it is called once, at the top of a file: one spec file serves one project.
 */
import {
  test as base,
  type Page,
  type PlaywrightTestArgs,
  type PlaywrightTestOptions,
  type PlaywrightWorkerArgs,
  type PlaywrightWorkerOptions,
  type TestType,
} from '@playwright/test';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeBatonProject, type BatonProject } from './baton-project';
import { makeBranchProject, type BranchProject } from './branch-project';
import { makeDemoProject, type DemoProject } from './demo-project';
import { makeParallelProject, type LanesProject } from './lanes-project';
import { runDependencyProject, type DependencyRun } from './dependency-run';
import { amend, type LockSeed, type ProposalSeed } from './amended-project';
import { escalate, type EscalationSeed } from './escalated-project';
import { FIXTURE_DIR } from './paths';
import { removeScratch } from './remove-scratch';
import { serve, type Served } from './serve';

export { expect } from '@playwright/test';

/** How a spec file's project is made, and what of it `baton serve` opens. */
export interface ProjectSource<P> {
  /** Names the scratch folder: `baton-e2e-<name>-XXXXXX` in the system's temporary folder. */
  readonly name: string;
  /** Makes the project in the scratch folder (a builder: it makes folders, it serves nothing). */
  make(scratch: string): P | Promise<P>;
  /** What `baton serve` opens: a project folder, a review bundle, or null for none (the Open screen). */
  target(project: P): string | null;
  /** The host's environment besides its own config folder, e.g. the project's BATON_DATA_DIR. */
  env?(project: P): NodeJS.ProcessEnv;
  /** More `baton serve` arguments, e.g. `--idle-timeout 1`. */
  readonly serveArgs?: readonly string[];
}

interface ServedTestFixtures {
  /** The test's page, opened on the served project's URL with its token. */
  servedPage: Page;
}

interface ServedWorkerFixtures<P> {
  /** The spec file's source: set with serving(). */
  source: ProjectSource<P>;
  /** The spec file's scratch folder: the project and the host's config folder live in it. */
  scratch: string;
  /** What the source made. */
  project: P;
  /** The running host. */
  served: Served;
}

type ServedTest<P> = TestType<
  PlaywrightTestArgs & PlaywrightTestOptions & ServedTestFixtures,
  PlaywrightWorkerArgs & PlaywrightWorkerOptions & ServedWorkerFixtures<P>
>;

const NO_SOURCE: ProjectSource<never> = {
  name: 'unset',
  make: () => {
    throw new Error('This spec file serves nothing: call serving(source) at its top.');
  },
  target: () => null,
};

const test = base.extend<ServedTestFixtures, ServedWorkerFixtures<unknown>>({
  source: [NO_SOURCE, { scope: 'worker', option: true }],
  scratch: [
    async ({ source }, use) => {
      const scratch = mkdtempSync(join(tmpdir(), `baton-e2e-${source.name}-`));
      await use(scratch);
      // A stopped run may still be writing into it for a moment: removeScratch retries for up to 30 s.
      await removeScratch(scratch);
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  // Building the demo runs the whole loop (up to 9 minutes on a small machine).
  project: [
    // Typed by hand: a fixture whose value is `unknown` gets no types from extend().
    async ({ source, scratch }: ServedWorkerFixtures<unknown>, use: (project: unknown) => Promise<void>) => {
      await use(await source.make(scratch));
    },
    { scope: 'worker', timeout: 600_000 },
  ],
  served: [
    async ({ source, scratch, project }, use) => {
      const configDir = join(scratch, 'host-config');
      mkdirSync(configDir);
      const served = await serve(source.target(project), { BATON_CONFIG_DIR: configDir, ...source.env?.(project) }, source.serveArgs ?? []);
      await use(served);
      await served.stop();
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  servedPage: async ({ page, served }, use) => {
    await page.goto(served.url);
    await use(page);
  },
});

/** The spec file's `test`, with `source`'s project served for the whole file. Call it once, at the top of the file. */
export function serving<P>(source: ProjectSource<P>): ServedTest<P> {
  test.use({ source });
  return test as unknown as ServedTest<P>;
}

// Sources.

/** A folder as it is checked in (by default e2e/fixtures/consort-shop), served in place: Baton never writes a Consort project. */
export const fixtureFolder = (dir: string = FIXTURE_DIR): ProjectSource<string> => ({
  name: 'fixture',
  make: () => dir,
  target: (folder) => folder,
});

/** No project: the host as `baton serve` with no folder starts, on the Open screen. */
export const noProject = (): ProjectSource<null> => ({ name: 'none', make: () => null, target: () => null });

interface BatonProjectOptions {
  /** The features made, each with its spec, story, AC, design and test list (default F-1). */
  readonly features?: readonly string[];
  /** Runs after the project is made, before it is served (e.g. approvals through the CLI). */
  prepare?(project: BatonProject): void;
  /** Serve a review bundle exported from the project (after `prepare`) instead of the folder. */
  readonly bundle?: boolean;
}

const bundleOf = (project: BatonProject) => join(project.scratch, 'review.baton');

/** A fresh Baton project (baton-project.ts), or a review bundle of it. */
export const batonProject = (options: BatonProjectOptions = {}): ProjectSource<BatonProject> => ({
  name: 'project',
  make: (scratch) => {
    const project = makeBatonProject(scratch, options.features);
    options.prepare?.(project);
    if (options.bundle) project.baton('export', project.dir, '-o', bundleOf(project));
    return project;
  },
  target: (project) => (options.bundle ? bundleOf(project) : project.dir),
});

/** A fresh Baton project whose ledger holds cycles that gave up (escalated-project.ts), oldest first. */
export const escalatedProject = (seeds: readonly EscalationSeed[], options: Omit<BatonProjectOptions, 'prepare'> = {}): ProjectSource<BatonProject> =>
  batonProject({ ...options, prepare: (project) => escalate(project, seeds) });

/** A fresh Baton project whose ledger holds locked items and the Navigator's test amendments of them (amended-project.ts). */
export const amendedProject = (
  locks: readonly LockSeed[],
  proposals: readonly ProposalSeed[],
  options: Omit<BatonProjectOptions, 'prepare'> = {},
): ProjectSource<BatonProject> => batonProject({ ...options, prepare: (project) => amend(project, locks, proposals) });

/** A Baton project ready for database branches (branch-project.ts), served with its data folder. */
export const branchProject = (): ProjectSource<BranchProject> => ({
  name: 'branches',
  make: makeBranchProject,
  target: (project) => project.dir,
  env: (project) => ({ BATON_DATA_DIR: project.dataDir }),
});

/** The demo as `baton demo` prepares it, before any run (demo-project.ts), served with its data folder. */
export const demoProject = (): ProjectSource<DemoProject> => ({
  name: 'run',
  make: makeDemoProject,
  target: (demo) => demo.root,
  env: (demo) => ({ BATON_DATA_DIR: demo.dataDir }),
});

/** Two independent stories, `parallel: 2`, before any run (lanes-project.ts), served with its data folder. */
export const parallelProject = (): ProjectSource<LanesProject> => ({
  name: 'parallel',
  make: makeParallelProject,
  target: (project) => project.root,
  env: (project) => ({ BATON_DATA_DIR: project.dataDir }),
});

/** A feature whose Driver asked for packages, run to the acceptance gate (dependency-run.ts). */
export const dependencyRun = (): ProjectSource<DependencyRun> => ({
  name: 'dependencies',
  make: runDependencyProject,
  target: (run) => run.root,
});
