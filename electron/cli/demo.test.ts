/**
 * `npx baton demo --from-request --ship --json` as a newcomer runs it: a one-paragraph request through
 * the scripted design roles, the whole enforced loop on the embedded database, the deploy and the
 * promotion to main, then `baton verify` on the result. Slow (a real run of eight items), so every
 * flag is taken in one run: `demo` alone and `--ship` alone run the same steps, less of them.
 */
import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { deployEvidenceProblem } from '../../shared/deploy-evidence';
import { recordsOf, RECORD_TYPES } from '../../shared/records';
import { Ledger } from '../ledger';
import { foldDisagreements } from '../core/one-fold.fixture';
import { readRecords, rechain, writeRecords } from './tamper.fixture';

const exec = promisify(execFile);
const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'baton.mjs');

interface DemoJson {
  project: string;
  items: { total: number; byStatus: Record<string, number> };
  repairs: number;
  violations: number;
  rejectedRed: number;
  ledgerHead: string;
  escalations: unknown[];
  phase: string;
  stoppedAt: string;
}

describe('npx baton demo --from-request --ship --json', () => {
  let demo: DemoJson | null = null;
  afterAll(async () => {
    if (demo) await rm(dirname(demo.project), { recursive: true, force: true });
  });

  it('takes a one-paragraph request through the design roles and every item to green (the planned repair, violation, rejected RED and amendment recorded), then deploys and promotes to main; the ledger verifies', async () => {
    const { stdout, stderr } = await exec(process.execPath, [BIN, 'demo', '--from-request', '--ship', '--no-mutation', '--json'], {
      maxBuffer: 16 * 1024 * 1024,
    });
    demo = JSON.parse(stdout) as DemoJson;
    expect(demo.items.total).toBe(8);
    const done = (demo.items.byStatus.green ?? 0) + (demo.items.byStatus.refactored ?? 0);
    expect(done).toBe(8);
    expect(demo.escalations).toEqual([]);
    expect(demo.repairs).toBe(1);
    expect(demo.violations).toBe(1);
    expect(demo.rejectedRed).toBe(1);
    expect(demo.ledgerHead).toMatch(/^[0-9a-f]{64}$/);
    expect(demo.phase, `${JSON.stringify(demo)}\n${stderr}`).toBe('done');

    const records = (await Ledger.forArtifactRoot(join(demo.project, '.baton')).read()).records;
    // The design phase: the scripted roles wrote the spec and design from the request; the demo PO approved them.
    expect(recordsOf(records, RECORD_TYPES.featureRequested)).toHaveLength(1);
    // --no-mutation: no GREEN was mutated (mutation testing has its own test: electron/mutation/).
    expect(recordsOf(records, RECORD_TYPES.cycleMutated)).toEqual([]);
    const design = recordsOf(records, RECORD_TYPES.designTurn).map((r) => `${r.data.role}:${r.data.attempt}:${r.data.outcome}`);
    expect(design).toEqual([
      'specAuthor:1:refused',
      'specAuthor:2:written',
      'architectReviewer:1:written',
      'dba:1:written',
      'uxDesigner:1:written',
      'testStrategist:1:written',
    ]);
    // Every gate decided by the demo PO: the design gates, each story's acceptance, then deploy and promote ("may promote").
    const approvals = recordsOf(records, RECORD_TYPES.gateApproved).map(
      (r) => `${r.data.gate}${r.subject.story ? ` ${r.subject.story}` : ''} by ${r.data.approver}`,
    );
    expect(approvals).toEqual(
      ['spec', 'design', 'test_list', 'acceptance S-1', 'acceptance S-2', 'deploy', 'promote'].map((g) => `${g} by Demo Product Owner <demo@baton.invalid>`),
    );
    // One test amendment: proposed by the Navigator reviewing T3, approved by the demo PO, re-run as T3's second round.
    const [amendment, ...more] = recordsOf(records, RECORD_TYPES.testAmendment);
    expect(more).toEqual([]);
    expect(amendment).toMatchObject({ actor: { kind: 'agent', id: 'navigator:scripted' }, subject: { item: 'T3', cycle: 'F-inventory/T3' } });
    expect(recordsOf(records, RECORD_TYPES.amendmentDecided).map((r) => [r.data.amendment, r.data.decision, r.actor.id])).toEqual([
      [amendment!.hash, 'approved', 'Demo Product Owner <demo@baton.invalid>'],
    ]);
    const round2 = records.filter((r) => r.subject.cycle === 'F-inventory/T3#2');
    expect(recordsOf(round2, RECORD_TYPES.cycleRed).map((r) => r.data.verdict)).toEqual(['red']);
    expect(recordsOf(round2, RECORD_TYPES.cycleLocked)[0]?.data.amendment).toBe(amendment!.hash);
    expect(recordsOf(round2, RECORD_TYPES.cycleGreened)).toHaveLength(1);

    // The last mile: deployed by the orchestrator (healthy, smoke test passed), then promoted to main with main's database migrated.
    // Each story is built on its own experiment pair (S-2's stacked on S-1's). T7's GREEN commit adds a
    // migration: S-2's database is migrated with it at once, and the feature's when acceptance merges S-2.
    const planned = new Set(recordsOf(records, RECORD_TYPES.cyclePlanned).map((r) => r.data.experiment));
    expect(planned).toEqual(new Set(['baton/f-inventory--s-1', 'baton/f-inventory--s-2']));
    const merged = recordsOf(records, RECORD_TYPES.storyMerged);
    expect(merged.map((r) => [r.data.story, r.data.experiment, r.data.into])).toEqual([
      ['S-1', 'baton/f-inventory--s-1', 'baton/f-inventory'],
      ['S-2', 'baton/f-inventory--s-2', 'baton/f-inventory'],
    ]);
    const migrated = recordsOf(records, RECORD_TYPES.branchMigrated);
    expect(migrated.map((r) => [r.data.gitBranch, r.data.applied, r.data.error])).toEqual([
      ['baton/f-inventory--s-2', ['002_reorder_level.sql'], null],
      ['baton/f-inventory', ['002_reorder_level.sql'], null],
    ]);
    // Each story merge is anchored to the newest record when it was made: the story's acceptance or later.
    for (const r of merged) {
      const { stdout: trailer } = await exec('git', ['-C', demo.project, 'log', '-1', '--format=%(trailers:key=Baton-Evidence,valueonly)', r.data.merge]);
      const named = records.find((x) => x.hash === trailer.trim());
      const acceptance = records.find((x) => x.type === RECORD_TYPES.gateApproved && x.subject.gate === 'acceptance' && x.subject.story === r.data.story);
      expect(named!.seq).toBeGreaterThanOrEqual(acceptance!.seq);
      expect(named!.seq).toBeLessThan(r.seq);
    }
    const { stdout: branchesLeft } = await exec('git', ['-C', demo.project, 'branch', '--list', 'baton/f-inventory--*']);
    expect(branchesLeft.trim()).toBe('');
    const deployed = recordsOf(records, RECORD_TYPES.deployRan);
    // A second deploy means a ship run stopped and was run again (demo.ts says why on stderr): shown with the records after the first.
    const after = records.filter((r) => r.seq >= (deployed[0]?.seq ?? 0)).map((r) => `#${r.seq} ${r.type} ${JSON.stringify(r.subject)}`);
    expect(
      deployed.map((r) => [r.data.healthy, r.data.verifyPassed, r.data.problem]),
      `${stderr}\n${after.join('\n')}`,
    ).toEqual([[true, true, null]]);
    const promoted = recordsOf(records, RECORD_TYPES.promoteDone);
    expect(promoted).toHaveLength(1);
    expect(promoted[0]!.data.applied).toEqual(['001_products.sql', '002_reorder_level.sql']);
    const { stdout: head } = await exec('git', ['-C', demo.project, 'log', '-1', '--format=%H %P', 'main']);
    const [commit, ...parents] = head.trim().split(' ');
    expect(commit).toBe(promoted[0]!.data.mergeCommit);
    expect(parents).toEqual([promoted[0]!.data.tierCommit, promoted[0]!.data.featureCommit]);
    const evidence = JSON.parse(await readFile(join(demo.project, '.baton', 'features', 'F-inventory', 'deploy-evidence.json'), 'utf8')) as unknown;
    expect(deployEvidenceProblem(evidence)).toBeNull();

    const verify = await exec(process.execPath, [BIN, 'verify', demo.project, '--json']);
    const report = JSON.parse(verify.stdout) as { ok: boolean };
    expect(report.ok).toBe(true);
    // Each story says what its ledger proves: accepted, then shipped by the promotion.
    const inspected = JSON.parse((await exec(process.execPath, [BIN, 'inspect', demo.project, '--json'])).stdout) as {
      features: { stories: { id: string; status: string }[] }[];
    };
    expect(inspected.features[0]!.stories).toEqual([
      { id: 'S-1', status: 'shipped' },
      { id: 'S-2', status: 'shipped' },
    ]);

    // One fact, one number: the board, the Live run, the Inbox, `baton status`, `baton gates` and
    // `baton inspect` agree on the demo's ledger mid-cycle (just after the rejected RED, the failing
    // GREEN and the lock violation), at each gate decision (the design gates, each acceptance — the
    // plain demo's end —, deploy, promote) and at the end (--ship).
    const ledgerFile = join(demo.project, '.baton', 'ledger', 'events.jsonl');
    const whole = await readFile(ledgerFile, 'utf8');
    const lines = whole.split('\n').filter(Boolean);
    const cuts = [
      recordsOf(records, RECORD_TYPES.cycleRed).find((r) => r.data.verdict !== 'red'),
      recordsOf(records, RECORD_TYPES.cycleGreen).find((r) => r.data.verdict === 'failing'),
      recordsOf(records, RECORD_TYPES.cycleViolation)[0],
      ...recordsOf(records, RECORD_TYPES.gateApproved),
    ];
    try {
      for (const r of cuts) {
        expect(r).toBeDefined();
        await writeFile(ledgerFile, `${lines.slice(0, lines.findIndex((l) => l.includes(r!.hash)) + 1).join('\n')}\n`);
        expect(await foldDisagreements(demo.project), `just after #${r!.seq} ${r!.type}`).toEqual([]);
      }
    } finally {
      await writeFile(ledgerFile, whole);
    }
    expect(await foldDisagreements(demo.project), 'at the end').toEqual([]);

    // baton metrics on the demo, counted by hand from its scenario: 8 items done, T6 the only one
    // that needed a repair (7 of 8 GREEN at the first attempt), T8's one lock violation at GREEN,
    // T3 in two rounds (its amendment), each gate decided once and each acceptance per story; the
    // scripted agent reports no usage, so tokens and cost are unknown, never zero.
    const metrics = JSON.parse((await exec(process.execPath, [BIN, 'metrics', demo.project, '--json'])).stdout) as {
      features: {
        feature: string;
        totals: {
          items: number;
          done: number;
          firstPassGreenRate: number;
          counts: Record<string, number>;
          usage: { reported: number; costUsd: number | null };
        };
        items: { item: string; rounds: number; firstPassGreen: boolean; counts: Record<string, number>; violationsByKind: Record<string, number> }[];
        stories: { story: string; accepted: boolean }[];
        gateLatency: { gate: string; decisions: number }[];
        interventions: { total: number; byType: Record<string, number> };
      }[];
    };
    const [inventory] = metrics.features;
    expect(inventory!.totals).toMatchObject({ items: 8, done: 8, firstPassGreenRate: 7 / 8, usage: { reported: 0, costUsd: null } });
    expect(inventory!.totals.counts).toMatchObject({ repairs: demo.repairs, violations: demo.violations, rejectedRed: demo.rejectedRed });
    const item = (id: string) => inventory!.items.find((i) => i.item === id)!;
    expect(inventory!.items.filter((i) => !i.firstPassGreen).map((i) => i.item)).toEqual(['T6']);
    expect(item('T6').counts.repairs).toBe(1);
    expect(item('T8').violationsByKind).toEqual({ 'the lock': 1 });
    expect(item('T3').rounds).toBe(2);
    // The demo PO's seven approvals and the one amendment decision: every other step was Baton's.
    expect(inventory!.interventions).toEqual({ total: 8, byType: { [RECORD_TYPES.gateApproved]: 7, [RECORD_TYPES.amendmentDecided]: 1 } });
    expect(inventory!.stories.map((st) => [st.story, st.accepted])).toEqual([
      ['S-1', true],
      ['S-2', true],
    ]);
    expect(inventory!.gateLatency.map((g) => [g.gate, g.decisions])).toEqual([
      ['spec', 1],
      ['design', 1],
      ['test_list', 1],
      ['acceptance', 2],
      ['deploy', 1],
      ['promote', 1],
    ]);

    // The demo's story dossier (issue 35): one offline page with every story, item and decision of the ledger.
    const page = join(dirname(demo.project), 'dossier.html');
    await exec(process.execPath, [BIN, 'dossier', demo.project, '--out', page]);
    const html = await readFile(page, 'utf8');
    expect(html).not.toMatch(/<script|<link|\ssrc=/);
    for (const st of inventory!.stories) expect(html).toContain(`id="${inventory!.feature}-${st.story}"`);
    for (const i of inventory!.items) expect(html).toContain(`id="${inventory!.feature}-${i.item}"`);
    const decisions = (await readRecords(demo.project)).filter((r) => r.actor.kind === 'person' && r.subject.feature === inventory!.feature);
    expect(decisions.length).toBeGreaterThanOrEqual(8);
    for (const d of decisions) expect(html).toContain(`<li id="record-${d.seq}">`);

    // Rechained after acceptance (S-1's approver made "Mallory", every hash recomputed): the story
    // merges' trailers name records the ledger no longer holds, so plain verify fails.
    const original = await readRecords(demo.project);
    const s1 = original.find((r) => r.type === RECORD_TYPES.gateApproved && r.subject.gate === 'acceptance' && r.subject.story === 'S-1')!;
    await writeRecords(demo.project, rechain(original.map((r) => (r.seq === s1.seq ? { ...r, data: { ...r.data, approver: 'Mallory <m@example.com>' } } : r))));
    const rewritten = await exec(process.execPath, [BIN, 'verify', demo.project, '--json']).then(
      () => ({ code: 0, stdout: '' }),
      (failed: { code: number; stdout: string }) => failed,
    );
    expect(rewritten.code).toBe(1);
    expect(rewritten.stdout).toMatch(/story S-1 accepted.*names evidence record .*which the ledger does not hold/);
    await writeRecords(demo.project, original);
  }, 900_000);
});
