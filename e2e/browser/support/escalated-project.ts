/**
 * Escalations in a real Baton project: the records a cycle that gave up leaves behind (its last
 * failing GREEN with the runner's output as blobs, `cycle.finished` escalated, the item's status),
 * appended with the project's own Ledger class through tsx, as the CLI runs it; the ledger read
 * back from disk, to check what a decision recorded; and an escalation opened in the Inbox.
 */
import { expect, type Page } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BatonProject } from './baton-project';
import { REPO_ROOT } from './paths';

export interface EscalationSeed {
  readonly feature: string;
  readonly item: string;
  readonly reason: string;
  /** What the runner printed on the last failing GREEN. */
  readonly stdout: string;
  readonly stderr?: string;
  /** The judge's one-line account of the failure. */
  readonly failure: string;
  readonly repairs?: number;
  readonly violations?: number;
  readonly rejectedRed?: number;
  /** The cycle's round (default 1): round 2 on is `<feature>/<item>#<round>`, as a retry starts it. */
  readonly round?: number;
  /** The last GREEN's `[sandbox]` line, as the run records it (absent: a record from before runs said). */
  readonly runnerSandbox?: string;
  /** Code that tells a test run apart, named by the last GREEN's violation (file, line, why, text). */
  readonly tells?: ReadonlyArray<{ readonly file: string; readonly line: number; readonly why: string; readonly text: string }>;
  /** A real agent's host, model and usage on each turn (absent: the scripted agent, which reports none). */
  readonly agent?: {
    readonly host: string;
    readonly model: string | null;
    readonly inputTokens: number;
    readonly outputTokens: number;
    readonly costUsd: number;
  };
}

/** A ledger record as `events.jsonl` holds it (the fields a spec checks). */
export interface StoredRecord {
  readonly seq: number;
  readonly hash: string;
  readonly type: string;
  readonly actor: { readonly kind: string; readonly id: string };
  readonly subject: Readonly<Record<string, string>>;
  readonly data: Readonly<Record<string, unknown>>;
}

/** A seed whose runner printed `FAIL <item>` after the 3 repairs of its budget. */
export const escalationSeed = (feature: string, item: string, more: Partial<EscalationSeed> = {}): EscalationSeed => ({
  feature,
  item,
  reason: `repair budget spent: 3 repairs and ${item} still fails`,
  stdout: `FAIL ${item}\n`,
  failure: `${item} failed`,
  ...more,
});

const APPEND = `
const { readFileSync } = await import('node:fs');
const { join } = await import('node:path');
const { Ledger } = await import('./electron/ledger/index.ts');
const { root, records } = JSON.parse(readFileSync(0, 'utf8'));
const ledger = Ledger.forArtifactRoot(join(root, '.baton'));
for (const record of records) await ledger.append(record);
`;

const ORCHESTRATOR = { kind: 'orchestrator', id: 'baton' };

function recordsOf(seed: EscalationSeed): unknown[] {
  const round = seed.round ?? 1;
  const subject = { feature: seed.feature, story: 'S-1', item: seed.item, cycle: `${seed.feature}/${seed.item}${round > 1 ? `#${round}` : ''}` };
  const repairs = seed.repairs ?? 3;
  const turn = { violations: 0, kept: [], outOfScope: [], turnMs: 0, agentExitCode: 0, tells: [], ...(seed.agent ? { agent: seed.agent } : {}) };
  // What the screens count is what the cycle recorded (shared/cycle-counts.ts): a seed that names its
  // counts gets the records behind them — the Navigator's tests refused as no RED, the earlier failing
  // GREEN attempts (each a repair), the turns that changed locked files. Without them a seed records
  // only its last GREEN (three records a seed, which ledger.spec.ts counts on).
  const earlier = [
    ...Array.from({ length: seed.rejectedRed ?? 0 }, (_, i) => ({
      type: 'cycle.red',
      actor: ORCHESTRATOR,
      subject,
      data: { key: `red:${i + 1}`, attempt: i + 1, ...turn, verdict: 'passed-at-once', worktree: `/tmp/red-${i + 1}` },
      blobs: [],
    })),
    ...Array.from({ length: seed.repairs === undefined ? 0 : repairs }, (_, i) => ({
      type: 'cycle.green',
      actor: ORCHESTRATOR,
      subject,
      data: { key: `green:${i + 1}`, attempt: i + 1, ...turn, verdict: 'failing', failure: seed.failure, escalate: null, lock: 'f'.repeat(64) },
      blobs: [],
    })),
    ...Array.from({ length: Math.max(0, (seed.violations ?? 0) - (seed.tells?.length ? 1 : 0)) }, (_, i) => ({
      type: 'cycle.violation',
      actor: { kind: 'agent', id: 'driver:scripted' },
      subject,
      data: {
        key: `violation:green:${i + 1}`,
        attempt: i + 1,
        step: 'green',
        files: [{ path: 'tests/checkout.test.ts', kind: 'modified' }],
        against: 'the lock',
      },
      blobs: [],
    })),
  ];
  return [
    ...earlier,
    {
      type: 'cycle.green',
      actor: ORCHESTRATOR,
      subject,
      // Every field the cycle.green schema (shared/records.ts) asks for, as the engine writes them.
      data: {
        key: `green:${repairs + 1}`,
        attempt: repairs + 1,
        violations: 0,
        kept: [],
        outOfScope: [],
        turnMs: 0,
        agentExitCode: 0,
        tells: [],
        ...(seed.agent ? { agent: seed.agent } : {}),
        verdict: 'failing',
        failure: seed.failure,
        escalate: null,
        lock: 'f'.repeat(64),
        ...(seed.runnerSandbox ? { runnerSandbox: seed.runnerSandbox } : {}),
      },
      blobs: [
        { name: 'runner/stdout.txt', content: seed.stdout },
        { name: 'runner/stderr.txt', content: seed.stderr ?? '' },
      ],
    },
    ...(seed.tells?.length
      ? [
          {
            type: 'cycle.violation',
            actor: { kind: 'agent', id: 'driver:scripted' },
            subject,
            data: {
              key: `tells:green:${repairs + 1}`,
              attempt: repairs + 1,
              step: 'green',
              files: [...new Set(seed.tells.map((t) => t.file))].map((path) => ({ path, kind: 'tell' })),
              against: 'code that tells a test run apart',
              tells: seed.tells.map((t) => ({ ...t, id: createHash('sha256').update(`${t.file}\n${t.why}\n${t.text}`).digest('hex') })),
            },
            blobs: [],
          },
        ]
      : []),
    {
      type: 'cycle.finished',
      actor: ORCHESTRATOR,
      subject,
      data: {
        key: 'finished',
        status: 'escalated',
        reason: seed.reason,
        repairs,
        violations: seed.violations ?? 0,
        rejectedRed: seed.rejectedRed ?? 0,
        cycle: subject.cycle,
        round,
      },
      blobs: [],
    },
    { type: 'item.status', actor: ORCHESTRATOR, subject, data: { key: 'status:escalated', item: seed.item, status: 'escalated' }, blobs: [] },
  ];
}

/** Appends each seed's records, in order (so the first seed is the oldest escalation). */
export function escalate(project: BatonProject, seeds: readonly EscalationSeed[]): void {
  const input = JSON.stringify({ root: project.dir, records: seeds.flatMap(recordsOf) });
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', APPEND], { cwd: REPO_ROOT, input, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`Appending the escalation records failed (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
}

/** Every record in the project's ledger file, oldest first. */
export function storedRecords(project: BatonProject): StoredRecord[] {
  const text = readFileSync(join(project.dir, '.baton', 'ledger', 'events.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as StoredRecord);
}

/** The `escalation.decided` records about one item. */
export const decisionsOf = (project: BatonProject, feature: string, item: string): StoredRecord[] =>
  storedRecords(project).filter((r) => r.type === 'escalation.decided' && r.subject.feature === feature && r.subject.item === item);

/** An escalation's entry in the Inbox. */
export const escalationEntry = (page: Page, feature: string, item: string) => page.getByTestId(`inbox-escalation-${feature}-${item}`);

/** Opens an item's escalation from the Inbox of the page already on the workbench. */
export async function openEscalation(page: Page, feature: string, item: string): Promise<void> {
  await page.getByTestId('nav-inbox').click();
  await escalationEntry(page, feature, item).click();
  await expect(escalationEntry(page, feature, item)).toHaveAttribute('aria-current', 'true');
  await expect(page.getByTestId('escalation-panel')).toContainText(`${item} escalated`);
}
