/**
 * A Consort project (the e2e fixture `consort-shop`: features, stories, ACs, test lists, gates.json
 * with approved hashes, sprint gates, cycle records) with each of its files mutated in turn.
 * Consort hashes its files as text, so the byte mutators matter as much as the JSON ones.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeLanes, fuzzFolder, type Lane, makeLanes } from './project-files.fixture';
import { FuzzLog, laneCopies } from './sandbox.fixture';

const CASES = 130;
const FIXTURE = fileURLToPath(new URL('../../e2e/fixtures/consort-shop', import.meta.url));
const C = '.consort';
const F = `${C}/features/F-checkout`;
const FILES = [
  `${F}/gates.json`,
  `${F}/test-list.json`,
  `${F}/feature-spec.json`,
  `${F}/stories/S-1/story.json`,
  `${F}/stories/S-1/acs/AC-1.json`,
  `${F}/pipeline.json`,
  `${F}/architecture.json`,
  `${C}/sprints/sprint-1/gates.json`,
  `${C}/sprints/sprint-1/backlog.json`,
  `${C}/cycles/F-checkout/S-1/AC-1/cycle-001.json`,
  `${C}/workflow-state.json`,
  `${C}/selection-log.md`,
  `${C}/smells.json`,
];

const log = new FuzzLog('consort-project');
let root: string;
let lanes: Lane[] = [];

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'baton-fuzz-consort-'));
  await fs.cp(FIXTURE, root, { recursive: true });
  lanes = makeLanes(await laneCopies(root));
});

afterAll(async () => {
  await closeLanes(lanes);
  await fs.rm(root, { recursive: true, force: true });
});

describe('fuzz: a Consort project', () => {
  it(`${CASES} mutated files, each through baton inspect, gates and verify --json`, { timeout: 600_000 }, async () => {
    await fuzzFolder({ log, lanes, files: FILES, commands: ['inspect', 'gates', 'verify'], cases: CASES });
    console.log(log.summary());
    expect(log.cases).toBe(CASES);
    expect(log.failures).toEqual([]);
  });
});
