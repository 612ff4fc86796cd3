/** How `baton branch` shows pairs, diffs, gc reports and progress to a person. */
import type { BranchListView, BranchPairView, BranchProgress, GcEntry, GcReport, ProviderKind, SchemaDiff } from '../../../shared/branches';
import { redactText } from '../../core/branches-errors';
import type { Io } from '../io';
import { table } from '../table';

/** Step and retry events as stderr lines; byte counts and "done" are too chatty for a terminal. */
export function progressPrinter(io: Io): (event: BranchProgress) => void {
  return (event) => {
    if (event.kind === 'branch.step') io.err(`  ${event.op} ${event.name}: ${redactText(event.step)}…`);
    else if (event.kind === 'branch.retry') io.err(`  ${event.op} ${event.name}: retry ${event.attempt} (${redactText(event.reason)})`);
  };
}

export function formatAge(iso: string | null, now: Date): string {
  if (iso === null) return '-';
  const seconds = Math.max(0, (now.getTime() - Date.parse(iso)) / 1000);
  if (seconds < 60) return `${Math.round(seconds)}s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)}h`;
  return `${Math.round(seconds / 86_400)}d`;
}

export function formatBytes(bytes: number | null): string {
  if (bytes === null) return '-';
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} kB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}

const ORPHAN_NOTES = { 'git-missing': 'orphan: git branch missing', 'database-missing': 'orphan: database missing' } as const;

function notes(pair: BranchPairView, now: Date): string {
  const out: string[] = [];
  if (pair.orphan) out.push(ORPHAN_NOTES[pair.orphan]);
  if (pair.masked) out.push('masked');
  if (pair.active) out.push('active');
  if (pair.expiresAt)
    out.push(Date.parse(pair.expiresAt) <= now.getTime() ? 'expired' : `expires in ${formatAge(now.toISOString(), new Date(Date.parse(pair.expiresAt)))}`);
  if (pair.kind === 'tier' && !pair.database && !pair.orphan) out.push('database made on first use');
  return out.join(', ');
}

/** The tree: children indented under their parent, in the service's tree order. */
export function formatList(view: BranchListView, now: Date): string {
  const level = new Map<string, number>();
  const rows = view.pairs.map((pair) => {
    const depth = pair.parent !== null && level.has(pair.parent) ? level.get(pair.parent)! + 1 : 0;
    level.set(pair.name, depth);
    return [
      `${'  '.repeat(depth)}${pair.name}`,
      pair.tier ?? pair.kind,
      pair.gitBranch ?? '-',
      pair.database ? String(pair.database.depth) : '-',
      formatAge(pair.createdAt, now),
      formatBytes(pair.database?.sizeBytes ?? null),
      notes(pair, now),
    ];
  });
  const title = `Provider: ${view.provider}${view.experimental ? ' (experimental)' : ''}  Pairs: ${view.pairs.length}`;
  return `${title}\n${table(['name', 'kind', 'git branch', 'db depth', 'age', 'size', 'notes'], rows)}`;
}

export function formatDiff(diff: SchemaDiff): string {
  if (diff.changes.length === 0) return `No schema differences between ${diff.branch} and its parent ${diff.parent}.`;
  const rows = diff.changes.map((c) => [c.kind, c.name ? `${c.table}.${c.name}` : c.table, c.before ?? '-', c.after ?? '-']);
  const head = `${diff.branch} compared with ${diff.parent}: ${diff.changes.length} change${diff.changes.length === 1 ? '' : 's'}`;
  return `${head}\n${table(['change', 'object', 'parent', 'branch'], rows, '  ')}${diff.text ? `\n\n${diff.text}` : ''}`;
}

const REASONS: Readonly<Record<GcEntry['reason'], string>> = {
  'git-missing': 'git branch missing',
  'database-missing': 'database missing',
  expired: 'past its time-to-live',
  tier: 'a tier: never collected',
  active: 'in use by a running cycle',
};

export function formatGc(report: GcReport): string {
  const lines: string[] = [];
  const entry = (e: GcEntry) => `  ${e.name}${e.gitBranch && e.gitBranch !== e.name ? ` (${e.gitBranch})` : ''}: ${REASONS[e.reason]}`;
  const verb = report.dryRun ? 'Would remove' : 'Removed';
  const { leftovers } = report;
  lines.push(
    report.removed.length
      ? `${verb} ${report.removed.length} branch pair${report.removed.length === 1 ? '' : 's'}:`
      : leftovers.length
        ? 'No branch pair to collect.'
        : 'Nothing to collect.',
  );
  lines.push(...report.removed.map(entry));
  if (leftovers.length)
    lines.push(
      `${report.dryRun ? 'Would drop' : 'Dropped'} ${leftovers.length} half-made database${leftovers.length === 1 ? '' : 's'} left by a crashed create or reset:`,
      ...leftovers.map((name) => `  ${name}`),
    );
  if (report.kept.length) lines.push(`Kept ${report.kept.length}:`, ...report.kept.map(entry));
  return lines.join('\n');
}

/** Exactly what deleting `pair` removes, one line each. */
export function describeRemoval(pair: BranchPairView, provider: ProviderKind): string[] {
  const out: string[] = [];
  if (pair.database)
    out.push(`database branch ${pair.name} (${provider}${pair.database.sizeBytes !== null ? `, ${formatBytes(pair.database.sizeBytes)}` : ''})`);
  if (pair.worktree) out.push(`worktree ${pair.worktree} (with any uncommitted changes in it)`);
  if (pair.gitBranch) out.push(`git branch ${pair.gitBranch}`);
  out.push(`pairing entry ${pair.name}`);
  return out;
}
