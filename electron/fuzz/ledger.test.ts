/**
 * A real ledger (gate approvals, item statuses, a record with a blob) with one line of
 * events.jsonl mutated per case. Every other case mutates the last record and gives it the hash
 * of its new content, so the chain still verifies and the hostile data reaches the readers behind
 * verification (the log, the gates' annotation, the record schemas), not only the hash check.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORD_TYPES } from '../../shared/records';
import { batonFeature, makeBatonProject, type TestProject } from '../gates/gate-project.fixture';
import { recordHash } from '../ledger/hashing';
import { mutatorsFor } from './mutators.fixture';
import { closeLanes, type Lane, makeLanes, runCli } from './project-files.fixture';
import { FuzzLog, inLanes, laneCopies } from './sandbox.fixture';

const CASES = 120;
const COMMANDS = ['verify', 'log', 'gates'];

const log = new FuzzLog('ledger');
let project: TestProject;
let lanes: Lane[] = [];
const EVENTS = path.join('.baton', 'ledger', 'events.jsonl');

beforeAll(async () => {
  project = await makeBatonProject({ ...batonFeature(), '.baton/project.json': { name: 'shop', defaultBranch: 'main' } });
  for (const gate of ['spec', 'design', 'test_list'] as const) {
    const approved = await project.approve(gate);
    if (!approved.ok) throw new Error(`seed ledger: ${gate} not approved: ${approved.error.message}`);
  }
  for (const item of ['T1', 'T2']) {
    await project.ledger.append({
      type: RECORD_TYPES.itemStatus,
      actor: { kind: 'orchestrator', id: 'baton' },
      subject: { feature: 'F-1', item },
      data: { key: `F-1/${item}`, item, status: 'green' },
      blobs: item === 'T2' ? [{ name: 'stdout', content: 'ok 1 - pays\n' }] : [],
    });
  }
  lanes = makeLanes(await laneCopies(project.root));
});

afterAll(async () => {
  await closeLanes(lanes);
  await project.cleanup();
});

/** The mutated line with its `hash` replaced by the hash of its new content, when it still has one. */
const rehashed = (line: string): string => {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return line;
  }
  if (typeof value !== 'object' || value === null || typeof (value as { hash?: unknown }).hash !== 'string') return line;
  const old = (value as { hash: string }).hash;
  try {
    return line.replace(old, recordHash(value as Parameters<typeof recordHash>[0]));
  } catch {
    return line; // unhashable: left as it is, for the reader to refuse
  }
};

describe('fuzz: the ledger', () => {
  it(`${CASES} mutated events.jsonl lines, each through baton verify, log and gates --json`, { timeout: 600_000 }, async () => {
    const seed = await fs.readFile(path.join(project.root, EVENTS), 'utf8');
    const lines = seed.split('\n').slice(0, -1);
    await inLanes(CASES, lanes, async (lane, i) => {
      const rng = log.rng(i);
      const last = i % 2 === 1;
      const index = last ? lines.length - 1 : rng.int(lines.length);
      const mutators = mutatorsFor(Buffer.from(lines[index]!));
      const mutated = mutators[Math.floor(i / 2) % mutators.length]!.apply(Buffer.from(lines[index]!), rng);
      const json = mutated.mutation.startsWith('json:');
      // A pretty-printed mutation is put back on one line: its newlines are whitespace between tokens.
      let line = json ? mutated.bytes.toString('utf8').replace(/\n\s*/g, '') : mutated.bytes.toString('latin1');
      if (last) line = rehashed(line);
      const before = lines.slice(0, index).map((l) => `${l}\n`);
      const after = lines.slice(index + 1).map((l) => `${l}\n`);
      await fs.writeFile(
        path.join(lane.root, EVENTS),
        Buffer.concat([Buffer.from(before.join('')), Buffer.from(`${line}\n`, json ? 'utf8' : 'latin1'), Buffer.from(after.join(''))]),
      );
      log.cases++;
      const input = `#${i} line ${index + 1}${last ? ' (rehashed)' : ''} ${mutated.mutation}`;
      for (const command of COMMANDS) await runCli(log, lane, command, lane.root, input);
    });
    console.log(log.summary());
    expect(log.cases).toBe(CASES);
    expect(log.failures).toEqual([]);
  });
});
