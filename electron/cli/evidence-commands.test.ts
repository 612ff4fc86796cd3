/**
 * The evidence commands through the real `baton` binary on a real git repository: approve, gates,
 * log, verify (intact, drifted, broken chain, torn tail), export and verify of a bundle, sign.
 */
import { execFile } from 'node:child_process';
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerifyReport } from '../../shared/ledger';
import { batonFeature } from '../gates/gate-project.fixture';
import { writeTree } from '../project/temp-project.fixture';

const run = promisify(execFile);
const BIN = fileURLToPath(new URL('../../bin/baton.mjs', import.meta.url));
const PERSON = 'Grace Hopper <grace@example.com>';

let base: string;
let repo: string;
let configDir: string;

async function baton(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env: { ...process.env, BATON_CONFIG_DIR: configDir } });
    return { code: 0, stdout, stderr };
  } catch (cause) {
    const failure = cause as { code: number; stdout: string; stderr: string };
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr };
  }
}

const json = <T>(text: string): T => JSON.parse(text) as T;
const events = () => join(repo, '.baton', 'ledger', 'events.jsonl');

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'baton-cli-evidence-'));
  configDir = join(base, 'config');
  repo = join(base, 'shop');
  await run('git', ['init', '-q', '-b', 'main', repo]);
  expect((await baton('init', repo)).code).toBe(0);
  await writeTree(repo, batonFeature('F-1'));
}, 60_000);

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('baton approve / gates / log / verify', () => {
  it('refuses an approval that names no hashes and no --yes, listing what it would approve', async () => {
    const result = await baton('approve', repo, '--feature', 'F-1', '--gate', 'spec', '--approver', PERSON);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/feature\.json=[0-9a-f]{64}/);
    expect(result.stderr).toContain('--expect');
  });

  it('refuses a stale --expect and records nothing', async () => {
    const result = await baton('approve', repo, '--feature', 'F-1', '--gate', 'spec', '--approver', PERSON, '--expect', `feature.json=${'0'.repeat(64)}`);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/feature\.json/);
    expect((await baton('log', repo, '--json')).stdout).toContain('"records": []');
  });

  it('approves with --yes, then shows the gate approved and the record in the log', async () => {
    const approved = await baton('approve', repo, '--feature', 'F-1', '--gate', 'spec', '--approver', PERSON, '--yes', '--comment', 'looks right');
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain('Approved spec');

    const gates = json<{ features: { id: string; gates: { name: string; status: string; approver: string | null }[] }[] }>(
      (await baton('gates', repo, '--json')).stdout,
    );
    const spec = gates.features[0]!.gates.find((g) => g.name === 'spec');
    expect(spec).toMatchObject({ status: 'approved', approver: PERSON });

    const log = json<{ records: { seq: number; type: string; actor: { id: string } }[] }>((await baton('log', repo, '--json')).stdout);
    expect(log.records).toHaveLength(1);
    expect(log.records[0]).toMatchObject({ seq: 1, type: 'gate.approved', actor: { id: PERSON } });
  });

  it('refuses approving the same gate twice', async () => {
    const again = await baton('approve', repo, '--feature', 'F-1', '--gate', 'spec', '--approver', PERSON, '--yes');
    expect(again.code).toBe(1);
    expect(again.stderr.toLowerCase()).toContain('already');
  });

  it('requires a reason to reject (usage error)', async () => {
    const result = await baton('reject', repo, '--feature', 'F-1', '--gate', 'design', '--approver', PERSON);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--reason is required');
  });

  it('verifies an intact project, then names a drifted artifact after an edit', async () => {
    const intact = await baton('verify', repo, '--json');
    expect(intact.code, intact.stdout).toBe(0);
    expect(json<VerifyReport>(intact.stdout)).toMatchObject({ ok: true, records: 1, chain: { ok: true }, signature: 'unsigned' });

    const file = join(repo, '.baton', 'features', 'F-1', 'stories', 'S-1', 'story.json');
    const original = await readFile(file, 'utf8');
    await writeFile(file, original.replace('to pay by card', 'to pay by cheque'));
    const drifted = await baton('verify', repo, '--json');
    expect(drifted.code).toBe(1);
    const report = json<VerifyReport>(drifted.stdout);
    const spec = report.gates.find((g) => g.gate === 'spec');
    expect(spec?.drift.map((d) => d.artifact)).toEqual(['stories/S-1/story.json']);
    expect(report.problems.some((p) => p.file.endsWith('stories/S-1/story.json'))).toBe(true);
    expect((await baton('gates', repo)).code).toBe(1);
    await writeFile(file, original);
    expect((await baton('verify', repo)).code).toBe(0);
  });

  it('signs the head and verify reports it signed', async () => {
    expect((await baton('sign', repo)).code).toBe(0);
    expect(json<VerifyReport>((await baton('verify', repo, '--json')).stdout).signature).toBe('signed');
  });

  it('exports a bundle that verifies on its own and opens read-only', async () => {
    const bundle = join(base, 'review.baton');
    const exported = await baton('export', repo, '-o', bundle, '--json');
    expect(exported.code, exported.stderr).toBe(0);
    expect(json<{ records: number }>(exported.stdout).records).toBe(1);
    const verified = await baton('verify', bundle, '--json');
    expect(verified.code, verified.stdout).toBe(0);
    expect(json<VerifyReport>(verified.stdout)).toMatchObject({ ok: true, records: 1 });
    const decided = await baton('approve', bundle, '--feature', 'F-1', '--gate', 'design', '--approver', PERSON, '--yes');
    expect(decided.code).toBe(1);
    expect(decided.stderr).toContain('read-only');
  });

  it('finds a record whose field was changed, at that record', async () => {
    const original = await readFile(events(), 'utf8');
    await writeFile(events(), original.replace(PERSON, 'Mallory <m@example.com>'));
    const broken = await baton('verify', repo, '--json');
    expect(broken.code).toBe(1);
    expect(json<VerifyReport>(broken.stdout).chain).toEqual({ ok: false, brokenAt: 1 });
    await writeFile(events(), original);
  });

  it('reports a torn final line and --repair-tail drops only it, recording the repair', async () => {
    await appendFile(events(), '{"seq":2,"at":"2026-');
    const torn = await baton('verify', repo, '--json');
    expect(torn.code).toBe(1);
    const repaired = await baton('verify', repo, '--repair-tail');
    expect(repaired.stdout).toContain('Dropped an incomplete final line');
    const log = json<{ records: { type: string }[] }>((await baton('log', repo, '--json')).stdout);
    expect(log.records.map((r) => r.type)).toEqual(['gate.approved', 'ledger.repaired']);
    expect((await baton('verify', repo)).code).toBe(0);
  });
});
