/** Pure inbox logic: which gates wait for a person, in which order, and which opens next. */
import { PREREQUISITE, type GateName } from '../../../shared/ledger';
import type { Gate, GateStatus, ProjectView } from '../../../shared/model';
import { refOf, sameRef, type GateRef } from './gate-ref';

/**
 * Statuses that need a decision: never decided, sent back, approval taken back, or changed since
 * approval (the backend gives exactly these a `pendingSince`).
 */
export const PENDING_STATUSES: readonly GateStatus[] = ['open', 'rejected', 'withdrawn', 'drifted'];


export interface InboxEntry {
  readonly ref: GateRef;
  readonly featureName: string;
  readonly gate: Gate;
  /** The earlier gate that must be approved first, when it is not yet (display only). */
  readonly waitsFor: GateName | null;
}

const time = (text: string | null): number => {
  const t = text ? Date.parse(text) : Number.NaN;
  return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t;
};

/**
 * Every pending gate across features: those that can be decided now first, then those waiting on
 * an earlier gate; each group oldest `pendingSince` first, unknown times last, otherwise stable.
 */
export function inboxEntries(view: ProjectView | null): InboxEntry[] {
  if (!view) return [];
  const entries: InboxEntry[] = [];
  for (const feature of view.features) {
    const approved = new Set(feature.gates.filter((g) => g.story === null && g.status === 'approved').map((g) => g.name));
    for (const gate of feature.gates) {
      if (!PENDING_STATUSES.includes(gate.status)) continue;
      const ref = refOf(feature.id, gate);
      if (!ref) continue;
      const pre = PREREQUISITE[ref.gate];
      // Foreign layouts name their gates differently; only Baton's own chain is known here.
      const waitsFor = view.layout === 'baton' && pre !== null && !approved.has(pre) ? pre : null;
      entries.push({ ref, featureName: feature.name, gate, waitsFor });
    }
  }
  return entries
    .map((entry, index) => ({ entry, index, at: time(entry.gate.pendingSince), blocked: entry.waitsFor === null ? 0 : 1 }))
    .sort((a, b) => a.blocked - b.blocked || a.at - b.at || a.index - b.index)
    .map(({ entry }) => entry);
}

export const countPending = (view: ProjectView | null): number => inboxEntries(view).length;

/**
 * What opens after a decision on `decided`: the entry that followed it, else the one before,
 * never `decided` itself (a rejected gate stays in the inbox, waiting for a new version).
 */
export function nextAfter(entries: readonly InboxEntry[], decided: GateRef): GateRef | null {
  const index = entries.findIndex((e) => sameRef(e.ref, decided));
  const others = entries.filter((e) => !sameRef(e.ref, decided));
  if (others.length === 0) return null;
  if (index < 0) return others[0]!.ref;
  return (others[index] ?? others[others.length - 1]!).ref;
}
