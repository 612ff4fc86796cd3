/**
 * A gated Baton project (spec, design and test list approved, so every gate hashes its files and
 * checks drift) with each of its JSON files mutated in turn: project.json, feature.json, story and
 * AC files, the test list, design files, deploy evidence, the pipeline.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batonFeature, makeBatonProject, type TestProject } from '../gates/gate-project.fixture';
import { closeLanes, fuzzFolder, type Lane, makeLanes } from './project-files.fixture';
import { FuzzLog, laneCopies } from './sandbox.fixture';

const CASES = 150;
const F = '.baton/features/F-1';
const FILES = [
  '.baton/project.json',
  `${F}/feature.json`,
  `${F}/stories/S-1/story.json`,
  `${F}/stories/S-1/acs/AC-1.json`,
  `${F}/test-list.json`,
  `${F}/architecture.json`,
  `${F}/db-design.json`,
  `${F}/deploy-evidence.json`,
  `${F}/pipeline.json`,
  `${F}/stories/S-1/acs/AC-2.json`,
];

const log = new FuzzLog('baton-project');
let project: TestProject;
let lanes: Lane[] = [];

beforeAll(async () => {
  project = await makeBatonProject({
    ...batonFeature(),
    '.baton/project.json': { name: 'shop', defaultBranch: 'main' },
    [`${F}/pipeline.json`]: { stories: { 'S-1': { status: 'ready' } } },
  });
  for (const gate of ['spec', 'design', 'test_list'] as const) {
    const approved = await project.approve(gate);
    if (!approved.ok) throw new Error(`seed project: ${gate} not approved: ${approved.error.message}`);
  }
  lanes = makeLanes(await laneCopies(project.root));
});

afterAll(async () => {
  await closeLanes(lanes);
  await project.cleanup();
});

describe('fuzz: a Baton project', () => {
  it(`${CASES} mutated files, each through baton inspect, gates and verify --json`, { timeout: 600_000 }, async () => {
    await fuzzFolder({ log, lanes, files: FILES, commands: ['inspect', 'gates', 'verify'], cases: CASES });
    console.log(log.summary());
    expect(log.cases).toBe(CASES);
    expect(log.failures).toEqual([]);
  });
});
