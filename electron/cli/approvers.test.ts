/**
 * The approver policy (`gates` in project.json) on a real project, through the commands and the
 * channels every host uses: a decision by someone the policy does not name is refused in words that
 * say who may; roles expand; the view says who may decide; a policy that does not validate refuses
 * every decision; approvals and rejections record when the gate opened, how long it waited and how
 * long the evidence was open.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../core/handlers';
import { Workbench } from '../core/workbench';
import { batonFeature } from '../gates/gate-project.fixture';
import { Ledger } from '../ledger';
import { RECORD_TYPES } from '../../shared/records';
import { sampleData } from '../../shared/records.fixture';
import { writeTree } from '../project/temp-project.fixture';
import { main } from './main';

const run = promisify(execFile);
const ADA = 'Ada Lovelace <ada@example.com>';
const BOB = 'Bob <bob@example.com>';
const EVE = 'Eve <eve@example.com>';

let base: string;
let repo: string;
const saved = process.env.BATON_CONFIG_DIR;

async function baton(...args: string[]) {
  const out: string[] = [];
  const code = await main([...args, '--json'], { out: (t) => out.push(t), err: () => undefined });
  return {
    code,
    json: JSON.parse(out.join('\n')) as { ok?: boolean; record?: { at: string; data: Record<string, unknown> }; error?: { code: string; message: string } },
  };
}

async function policy(extra: Record<string, unknown>) {
  const file = join(repo, '.baton', 'project.json');
  const settings = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  delete settings['gates'];
  delete settings['approverRoles'];
  await writeFile(file, JSON.stringify({ ...settings, ...extra }, null, 2));
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'baton-approvers-'));
  process.env.BATON_CONFIG_DIR = join(base, 'config');
  repo = join(base, 'shop');
  await run('git', ['init', '-q', '-b', 'main', repo]);
  expect(await main(['init', repo], { out: () => undefined, err: () => undefined })).toBe(0);
  await writeTree(repo, batonFeature('F-1'));
  await policy({ gates: { spec: ['ada@example.com'], design: ['@po'] }, approverRoles: { po: ['bob@example.com'] } });
}, 60_000);

afterAll(async () => {
  process.env.BATON_CONFIG_DIR = saved;
  await rm(base, { recursive: true, force: true });
});

describe('who may decide a gate', () => {
  it('refuses an approval or rejection by someone the policy does not name, saying who may', async () => {
    const refused = await baton('approve', repo, '--feature', 'F-1', '--gate', 'spec', '--yes', '--approver', EVE);
    expect(refused).toMatchObject({ code: 1, json: { ok: false, error: { code: 'not-allowed' } } });
    expect(refused.json.error!.message).toBe(
      'Only ada@example.com may decide the spec gate (gates.spec in .baton/project.json); Eve <eve@example.com> is not among them. Decide as one of them, or change the policy in project.json.',
    );
    expect((await baton('reject', repo, '--feature', 'F-1', '--gate', 'spec', '--reason', 'no', '--approver', EVE)).json.error?.code).toBe('not-allowed');
    expect((await Ledger.forArtifactRoot(join(repo, '.baton')).read()).records.filter((r) => r.type.startsWith('gate.'))).toEqual([]);
  });

  it('lets the named people decide (roles expanded), and records when the gate opened and how long it waited', async () => {
    const spec = await baton('approve', repo, '--feature', 'F-1', '--gate', 'spec', '--yes', '--approver', ADA);
    expect(spec.code).toBe(0);
    // Ada is not in the design gate's role.
    expect((await baton('approve', repo, '--feature', 'F-1', '--gate', 'design', '--yes', '--approver', ADA)).json.error?.code).toBe('not-allowed');
    const design = await baton('approve', repo, '--feature', 'F-1', '--gate', 'design', '--yes', '--approver', BOB);
    expect(design.code).toBe(0);
    expect(design.json.record!.data).toMatchObject({ approver: BOB, openedAt: spec.json.record!.at, waitedMs: expect.any(Number) });
    expect(design.json.record!.data['waitedMs']).toBeGreaterThanOrEqual(0);
    // The test list's artifacts were written (its design turn) after the design approval: it waited from then on, not while it was written.
    const written = await Ledger.forArtifactRoot(join(repo, '.baton')).append({
      type: RECORD_TYPES.designTurn,
      actor: { kind: 'orchestrator', id: 'baton' },
      subject: { feature: 'F-1' },
      data: sampleData(RECORD_TYPES.designTurn, { role: 'navigator', gate: 'test_list' }),
    });
    // A gate the policy does not name: anyone.
    const testList = await baton('approve', repo, '--feature', 'F-1', '--gate', 'test_list', '--yes', '--approver', EVE);
    expect(testList.code).toBe(0);
    expect(testList.json.record!.data).toMatchObject({ openedAt: written.at });
    expect(Date.parse(written.at)).toBeGreaterThan(Date.parse(design.json.record!.at));
  });

  it('the view says who may decide; a rejection through the channel records how long the evidence was open', async () => {
    const workbench = new Workbench({ host: 'browser', version: '0.0.0', configDir: join(base, 'config-wb') });
    expect((await workbench.open(repo)).ok).toBe(true);
    const gates = workbench.project!.features[0]!.gates;
    expect(gates.find((g) => g.name === 'design')?.approvers).toEqual(['bob@example.com']);
    expect(gates.find((g) => g.name === 'test_list')?.approvers).toBeUndefined();
    const handlers = createHandlers(workbench);
    const withdrawn = await handlers['gates:withdraw']({ feature: 'F-1', gate: 'design', approver: BOB, reason: 'the layers changed' });
    expect(withdrawn.ok).toBe(true);
    const rejected = await handlers['gates:reject']({ feature: 'F-1', gate: 'design', approver: BOB, reason: 'still wrong', viewedMs: 4321 });
    expect(rejected.ok && rejected.value.data).toMatchObject({ viewedMs: 4321, openedAt: expect.any(String) });
    await workbench.close?.();
  });

  it('test amendments are decided by the test_list gate’s approvers', async () => {
    await policy({ gates: { test_list: ['@po'] }, approverRoles: { po: ['bob@example.com'] } });
    const workbench = new Workbench({ host: 'browser', version: '0.0.0', configDir: join(base, 'config-wb2') });
    expect((await workbench.open(repo)).ok).toBe(true);
    const decided = await createHandlers(workbench)['amendments:decide']({ feature: 'F-1', amendment: 'a'.repeat(64), decision: 'approve', approver: EVE });
    expect(decided.ok ? null : decided.error).toMatchObject({
      code: 'not-allowed',
      message: expect.stringContaining('Only bob@example.com may decide a test amendment'),
    });
    const allowed = await createHandlers(workbench)['amendments:decide']({ feature: 'F-1', amendment: 'a'.repeat(64), decision: 'approve', approver: BOB });
    expect(allowed.ok ? null : allowed.error.code).toBe('not-found');
  });

  it('a policy that does not validate refuses every decision, saying what is wrong', async () => {
    await policy({ gates: { acceptance: ['@qa'] } });
    const refused = await baton('reject', repo, '--feature', 'F-1', '--gate', 'spec', '--reason', 'x', '--approver', ADA);
    expect(refused.json.error).toMatchObject({
      code: 'invalid-settings',
      message: expect.stringContaining('gates.acceptance names the role @qa, which approverRoles does not define'),
    });
    const workbench = new Workbench({ host: 'browser', version: '0.0.0', configDir: join(base, 'config-wb3') });
    expect((await workbench.open(repo)).ok).toBe(true);
    const amendment = await createHandlers(workbench)['amendments:decide']({ feature: 'F-1', amendment: 'a'.repeat(64), decision: 'approve', approver: ADA });
    expect(amendment.ok ? null : amendment.error.code).toBe('invalid-settings');
  });
});
