/**
 * What is new to decide since the last look, said as a notification (issue 35, part 4): each entry
 * of the Inbox that can be decided now and could not be before — a gate ready to decide, an item
 * escalated, a run blocked, an amendment to decide. Pure: the hook (use-notifications.ts) keeps the
 * keys it saw and shows what this returns.
 */
import type { RunStateView } from '../../../shared/run';
import { entryKey, isDecidable, type InboxEntry } from '../lib/inbox-model';

export interface NeedsYou {
  /** The entry's key (entryKey): one notification per entry, replaced rather than stacked. */
  readonly key: string;
  readonly title: string;
  readonly body: string;
  readonly entry: InboxEntry;
}

/** The keys of every entry that can be decided now. */
export const decidableKeys = (entries: readonly InboxEntry[]): Set<string> => new Set(entries.filter(isDecidable).map(entryKey));

/** Entries decidable now whose keys were not decidable in `before`, as notifications. */
export function newlyDecidable(before: ReadonlySet<string>, entries: readonly InboxEntry[]): NeedsYou[] {
  return entries.filter((e) => isDecidable(e) && !before.has(entryKey(e))).map((entry) => ({ key: entryKey(entry), entry, ...words(entry) }));
}

function words(entry: InboxEntry): { title: string; body: string } {
  switch (entry.kind) {
    case 'gate': {
      const story = entry.ref.story ? ` (${entry.ref.story})` : '';
      return { title: `The ${entry.ref.gate.replace('_', ' ')} gate is ready to decide`, body: `${entry.featureName}${story}: open it in the Inbox.` };
    }
    case 'escalation':
      return { title: `${entry.ref.item} escalated`, body: `${entry.featureName}: ${entry.escalation.reason}` };
    case 'block':
      return { title: `The run of ${entry.featureName} is blocked`, body: entry.block.message };
    default:
      return { title: 'A test amendment to decide', body: `${entry.featureName}: the Navigator proposes changing a locked test.` };
  }
}

/**
 * A run this window was following that has just ended with news no Inbox entry carries: the feature
 * is done, or the run failed. A run that stopped at a gate, escalated or blocked is said by that
 * entry; one stopped by a person is no news to them. Null otherwise.
 */
export function runEnded(before: Pick<RunStateView, 'running'>, now: RunStateView): { title: string; body: string } | null {
  if (!before.running || now.running) return null;
  const feature = now.summary?.feature ?? now.feature ?? 'the feature';
  if (now.outcome === 'failed') return { title: `The run of ${feature} failed`, body: now.message ?? 'Open the live run panel for what went wrong.' };
  if (now.outcome === 'finished' && now.summary?.phase === 'done') return { title: `${feature} is done`, body: now.summary.stoppedAt };
  return null;
}
