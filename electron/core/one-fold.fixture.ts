/**
 * One fact, one number (issue 34, part 2): every view of a project computed as its host computes it —
 * the board's cards and columns and the Live run's counts (the renderer's own pure models over the
 * view the host serves), the Inbox's entries, and `baton status`, `baton gates` and `baton inspect`
 * (the CLI in this process, `--json`) — and every place where two of them say the same fact
 * differently. Empty when they all agree.
 */
import { NO_COUNTS, type CycleCounts } from '../../shared/cycle-counts';
import type { EvidenceSummary } from '../../shared/ledger';
import type { Gate, ProjectView } from '../../shared/model';
import { filterCards, groupByStatus } from '../../renderer/src/lib/board-model';
import { escalationEntries, gateEntries } from '../../renderer/src/lib/inbox-model';
import { runCountsOf } from '../../renderer/src/run/run-counts';
import type { FeatureStatus } from './project-tools';
import type { InspectReport } from './inspect-project';
import { loadProject } from './load-project';
import { baton } from '../cli/branch-project.fixture';

type Figures = Pick<CycleCounts, 'repairs' | 'violations' | 'rejectedRed'>;
type MaybeFigures = { readonly [K in keyof Figures]?: number | null };

const figures = (c: MaybeFigures | null): Figures => ({ repairs: c?.repairs ?? 0, violations: c?.violations ?? 0, rejectedRed: c?.rejectedRed ?? 0 });
// Sorted by status, so the order a view lists them in is not a difference.
const nonZero = (counts: Readonly<Record<string, number | undefined>>) =>
  Object.fromEntries(
    Object.entries(counts)
      .filter(([, n]) => (n ?? 0) > 0)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const gateKey = (g: Pick<Gate, 'name' | 'story'>) => (g.story ? `${g.name} (${g.story})` : g.name);
const gateStatuses = (gates: readonly Pick<Gate, 'name' | 'story' | 'status'>[]) => Object.fromEntries(gates.map((g) => [gateKey(g), g.status]));

async function cliJson<T>(...argv: string[]): Promise<T> {
  const run = await baton(...argv, '--json');
  if (run.code !== 0 && !run.out.trim().startsWith('{')) throw new Error(`baton ${argv.join(' ')} exited ${run.code}: ${run.err}`);
  return JSON.parse(run.out) as T;
}

interface GatesJson {
  readonly features: readonly { readonly id: string; readonly gates: readonly Gate[]; readonly evidence: EvidenceSummary | null }[];
}

/** The disagreements between the views of the project at `root`, each in words; empty when all agree. */
export async function foldDisagreements(root: string): Promise<string[]> {
  const loaded = await loadProject(root);
  if (!loaded.ok) throw new Error(loaded.error.message);
  const view = loaded.value.view;
  await loaded.value.dispose();
  const out: string[] = [];
  for (const feature of view.features) out.push(...viewsDisagree(view, feature.id, await reportedViews(root, feature.id)));
  return out;
}

/** What the CLI reports of one feature: `baton status`, `baton gates` (its gates and evidence, the Inbox's fold) and `baton inspect`. */
export async function reportedViews(root: string, feature: string): Promise<Reported> {
  const gates = await cliJson<GatesJson>('gates', root);
  const inspect = await cliJson<InspectReport>('inspect', root);
  const status = await cliJson<FeatureStatus>('status', root, '--feature', feature);
  const mine = gates.features.find((f) => f.id === feature);
  return { status, evidence: mine?.evidence ?? null, inspected: inspect.features.find((f) => f.id === feature), gates: mine?.gates ?? [] };
}

export interface Reported {
  readonly status: FeatureStatus;
  readonly evidence: EvidenceSummary | null;
  readonly inspected: InspectReport['features'][number] | undefined;
  readonly gates: readonly Gate[];
}

/** Where the workbench's views of `id` (from `view`) and the CLI's (`reported`) say one fact differently. */
export function viewsDisagree(view: ProjectView, id: string, reported: Reported): string[] {
  const feature = view.features.find((f) => f.id === id);
  if (!feature) return [`${id}: not in the workbench's view`];
  const out: string[] = [];
  const differ = (fact: string, views: Readonly<Record<string, unknown>>) => {
    const [first, ...rest] = Object.values(views);
    if (rest.some((v) => !same(v, first)))
      out.push(
        `${fact}: ${Object.entries(views)
          .map(([name, v]) => `${name} ${JSON.stringify(v)}`)
          .join(' · ')}`,
      );
  };
  const { status, evidence, inspected, gates } = reported;
  const cards = filterCards(view.features, { feature: id, story: null, kind: 'all' });
  const columns = groupByStatus(cards);
  differ(`${id} items by status`, {
    'board columns': nonZero(Object.fromEntries(Object.entries(columns).map(([s, list]) => [s, list.length]))),
    'baton status': nonZero(status.items.byStatus),
    'inbox evidence': nonZero(evidence?.byStatus ?? {}),
    'baton inspect': nonZero(inspected?.testList.byStatus ?? {}),
  });
  const live = runCountsOf(view, id);
  const total = { repairs: 0, violations: 0, rejectedRed: 0 };
  for (const card of cards) {
    const counts = figures(card.counts ?? NO_COUNTS);
    for (const k of ['repairs', 'violations', 'rejectedRed'] as const) total[k] += counts[k];
    differ(`${id}/${card.item.id} counts`, {
      card: counts,
      'live run': figures(live(card.item.id)),
      'inbox evidence': figures(evidence?.items.find((i) => i.id === card.item.id) ?? null),
    });
  }
  differ(`${id} totals`, { 'cards added up': total, 'baton status': figures(status), 'inbox evidence': figures(evidence) });
  // An escalation's counts are its cycle's: the same as the cycle the board's drawer lists.
  for (const e of feature.escalations) {
    const cycle = feature.cycleRuns.find((c) => c.record?.hash === e.record);
    differ(`${id}/${e.item} escalation counts`, { 'inbox escalation': figures(e), 'its cycle': figures(cycle?.counts ?? null) });
  }
  const inboxEscalations = escalationEntries(view)
    .filter((e) => e.ref.feature === id)
    .map((e) => e.ref.item)
    .sort();
  differ(`${id} escalations`, { inbox: inboxEscalations, 'baton status': status.escalations.map((e) => e.item).sort() });
  differ(`${id} escalations waiting`, { inbox: inboxEscalations.length, 'inbox evidence': evidence?.escalations ?? 0 });
  differ(`${id} gate statuses`, {
    workbench: gateStatuses(feature.gates),
    'baton gates': gateStatuses(gates),
    'baton inspect': gateStatuses(inspected?.gates ?? []),
  });
  differ(`${id} open gates`, {
    workbench: feature.gates.filter((g) => g.status !== 'approved' && g.status !== 'superseded').map(gateKey),
    'baton status': status.openGates,
  });
  // The Inbox never offers a gate as ready to decide that something else holds back.
  for (const entry of gateEntries(view).filter((e) => e.ref.feature === id && e.group === 'ready'))
    if (entry.gate.blockedBy) differ(`${id} ${gateKey(entry.gate)} readiness`, { inbox: 'ready to decide', workbench: entry.gate.blockedBy.message });
  differ(`${id} stories`, {
    workbench: feature.stories.map((s) => ({ id: s.id, status: s.status })),
    'baton inspect': inspected?.stories ?? [],
  });
  return out;
}
