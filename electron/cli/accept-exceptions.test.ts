/**
 * Acceptance needs proof, from a terminal (issue 32): `baton approve --gate acceptance` is refused
 * while an AC is unproven, naming it and the command that accepts it anyway; `--exception` without
 * `--reason` is a usage error; with both, the approval is recorded with its exceptions and `baton
 * gates` shows them for good. The channel is the one every host uses.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batonFeature } from '../gates/gate-project.fixture';
import { Ledger } from '../ledger';
import { ORCHESTRATOR } from '../ledger/temp-ledger.fixture';
import { writeTree } from '../project/temp-project.fixture';
import { RECORD_TYPES } from '../../shared/records';
import { sampleData } from '../../shared/records.fixture';
import { EXIT } from './exit-codes';
import { main } from './main';

const run = promisify(execFile);
const ADA = 'Ada Lovelace <ada@example.com>';
const ACCEPT = ['--feature', 'F-1', '--story', 'S-1', '--gate', 'acceptance', '--yes', '--approver', ADA];

let base: string;
let repo: string;
const saved = process.env.BATON_CONFIG_DIR;

async function baton(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'baton-exceptions-'));
  process.env.BATON_CONFIG_DIR = join(base, 'config');
  repo = join(base, 'shop');
  await run('git', ['init', '-q', '-b', 'main', repo]);
  expect((await baton('init', repo)).code).toBe(0);
  await writeTree(repo, batonFeature('F-1'));
  for (const gate of ['spec', 'design', 'test_list'])
    expect((await baton('approve', repo, '--feature', 'F-1', '--gate', gate, '--yes', '--approver', ADA)).code).toBe(0);
  // T1 went GREEN; T2 (AC-2) never did.
  const ledger = Ledger.forArtifactRoot(join(repo, '.baton'));
  const subject = { feature: 'F-1', story: 'S-1', item: 'T1', cycle: 'F-1/T1/1' };
  await ledger.append({ type: RECORD_TYPES.cycleGreened, actor: ORCHESTRATOR, subject, data: sampleData(RECORD_TYPES.cycleGreened, {}) });
  await ledger.append({
    type: RECORD_TYPES.itemStatus,
    actor: ORCHESTRATOR,
    subject,
    data: sampleData(RECORD_TYPES.itemStatus, { item: 'T1', status: 'green' }),
  });
}, 60_000);

afterAll(async () => {
  process.env.BATON_CONFIG_DIR = saved;
  await rm(base, { recursive: true, force: true });
});

describe('baton approve --gate acceptance', () => {
  it('refuses an unproven AC, names it, and says how to accept it anyway; gates says why it waits', async () => {
    const refused = await baton('approve', repo, ...ACCEPT);
    expect(refused.code).not.toBe(EXIT.ok);
    expect(refused.err).toContain('AC-2 (T2 is not GREEN (pending))');
    expect(refused.err).toContain('--exception AC-2 --reason TEXT');
    const gates = await baton('gates', repo);
    expect(gates.out).toContain('acceptance (S-1) cannot be approved yet: Cannot approve the acceptance gate of F-1, story S-1: an AC is not proven');
  });

  it('takes --exception only with --reason', async () => {
    const usage = await baton('approve', repo, ...ACCEPT, '--exception', 'AC-2');
    expect(usage.code).toBe(EXIT.usage);
    expect(usage.err).toContain('--exception and --reason go together');
  });

  it('approves with exceptions, records them, and gates shows them for good', async () => {
    const approved = await baton('approve', repo, ...ACCEPT, '--exception', 'AC-2', '--reason', 'declines ship next release', '--json');
    expect(approved.code).toBe(EXIT.ok);
    const record = (JSON.parse(approved.out) as { record: { data: Record<string, unknown> } }).record;
    expect(record.data).toMatchObject({ exceptions: [{ ac: 'AC-2', why: 'T2 is not GREEN (pending)' }], exceptionReason: 'declines ship next release' });
    const gates = await baton('gates', repo);
    expect(gates.out).toContain('acceptance (S-1) approved with exceptions: AC-2 unproven (T2 is not GREEN (pending)); reason: "declines ship next release"');
    const json = JSON.parse((await baton('gates', repo, '--json')).out) as { features: { gates: { name: string; exceptions?: unknown }[] }[] };
    expect(json.features[0]!.gates.find((g) => g.name === 'acceptance')?.exceptions).toEqual({
      acs: [{ ac: 'AC-2', why: 'T2 is not GREEN (pending)' }],
      reason: 'declines ship next release',
    });
  });
});
