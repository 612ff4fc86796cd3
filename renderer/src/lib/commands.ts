/**
 * The command palette's commands, pure: built from the project view (every screen, feature, item
 * and inbox entry, and the actions the workbench offers) and filtered by what was typed. No
 * palette library: a substring-then-subsequence match over a few thousand labels is fast enough
 * and keeps the renderer's bundle as it is.
 */
import type { ProjectView } from '../../../shared/model';
import type { ItemRef } from './board-model';
import { entryKey, inboxEntries, type InboxEntry, type InboxRef } from './inbox-model';

/** The screens the left rail links to, in its order. */
export const RAIL_SCREENS = [
  { screen: 'board', label: 'Board' },
  { screen: 'specs', label: 'Specs' },
  { screen: 'inbox', label: 'Inbox' },
  { screen: 'gates', label: 'Gates' },
  { screen: 'branches', label: 'Branches' },
  { screen: 'evidence', label: 'Evidence' },
  { screen: 'metrics', label: 'Metrics' },
  { screen: 'problems', label: 'Problems' },
  { screen: 'settings', label: 'Settings' },
] as const;
export type RailScreen = (typeof RAIL_SCREENS)[number]['screen'];

/** The drawer tab an item command opens. */
export type DrawerTab = 'ac' | 'cycles' | 'evidence';

/** The actions the workbench already offers as buttons or keys. */
export type ActionKind = 'new-feature' | 'run' | 'stop' | 'toggle-run-panel' | 'shortcuts' | 'reload';

export type CommandAction =
  | { readonly kind: 'screen'; readonly screen: RailScreen }
  | { readonly kind: 'feature'; readonly feature: string }
  | { readonly kind: 'item'; readonly ref: ItemRef; readonly tab: DrawerTab }
  | { readonly kind: 'inbox'; readonly ref: InboxRef }
  | { readonly kind: ActionKind };

export type CommandGroup = 'Screens' | 'Actions' | 'Decisions' | 'Features' | 'Items';

export interface Command {
  /** Unique among the commands, safe in an element id. */
  readonly id: string;
  readonly group: CommandGroup;
  readonly label: string;
  /** Shown beside the label (the feature an item belongs to, a shortcut). */
  readonly hint: string;
  /** Also matched, never shown (other words for the same thing). */
  readonly keywords: string;
  readonly action: CommandAction;
}

/** What the project allows: whether Baton may change it, run it, and whether a run is going on. */
export interface CommandContext {
  readonly canChange: boolean;
  readonly runnable: boolean;
  readonly running: boolean;
  /** "Ctrl" or "Cmd": how the shortcuts are written on this machine. */
  readonly mod: string;
}

const safeId = (text: string): string => text.replace(/[^A-Za-z0-9_-]/g, '_');

function inboxCommand(entry: InboxEntry, readOnly: boolean): Command {
  const id = `inbox-${safeId(entryKey(entry))}`;
  const verb = readOnly ? 'Read' : 'Decide';
  const base = { id, group: 'Decisions' as const, hint: entry.featureName, action: { kind: 'inbox' as const, ref: entry.ref } };
  switch (entry.kind) {
    case 'gate': {
      const story = entry.ref.story ? ` of ${entry.ref.story}` : '';
      return {
        ...base,
        label: `${verb} the ${entry.ref.gate} gate${story} of ${entry.ref.feature}`,
        keywords: `gate approve reject inbox ${entry.ref.gate.replace(/_/g, ' ')}`,
      };
    }
    case 'escalation':
      return { ...base, label: `${verb} the escalation of ${entry.ref.item} (${entry.ref.feature})`, keywords: 'escalated inbox' };
    case 'block':
      return { ...base, label: `${verb} the blocked run of ${entry.ref.feature}`, keywords: 'blocked run inbox' };
    default:
      return { ...base, label: `${verb} the test amendment ${entry.ref.amendment} (${entry.ref.feature})`, keywords: 'amendment inbox' };
  }
}

/**
 * Every command, in the order shown before anything is typed: screens, actions, decisions waiting
 * in the Inbox, features, then items (each twice: its drawer, and its drawer's Evidence tab). A
 * project Baton may not change offers no action that changes it, and its decisions only to read.
 */
export function buildCommands(view: ProjectView | null, context: CommandContext): Command[] {
  const commands: Command[] = RAIL_SCREENS.map(({ screen, label }) => ({
    id: `screen-${screen}`,
    group: 'Screens',
    label,
    hint: 'Screen',
    keywords: 'go to screen view',
    action: { kind: 'screen', screen },
  }));
  const action = (kind: ActionKind, label: string, hint: string, keywords: string): Command => ({
    id: `action-${kind}`,
    group: 'Actions',
    label,
    hint,
    keywords,
    action: { kind },
  });
  if (context.canChange) commands.push(action('new-feature', 'New feature…', 'Action', 'create request intake'));
  if (context.runnable && !context.running) commands.push(action('run', 'Run the enforced loop', 'Action', 'start build'));
  if (context.running) commands.push(action('stop', 'Stop the run', 'Action', 'halt pause'));
  commands.push(action('toggle-run-panel', 'Show or hide the live run', `${context.mod}+J`, 'panel log transcript output'));
  commands.push(action('shortcuts', 'Keyboard shortcuts', '?', 'help keys'));
  commands.push(action('reload', 'Reload the project', 'Action', 'refresh'));
  if (!view) return commands;
  for (const entry of inboxEntries(view)) commands.push(inboxCommand(entry, view.readOnly || view.bundle !== null));
  for (const feature of view.features) {
    commands.push({
      id: `feature-${safeId(feature.id)}`,
      group: 'Features',
      label: `Switch to ${feature.id} · ${feature.name}`,
      hint: 'Feature',
      keywords: 'feature filter board',
      action: { kind: 'feature', feature: feature.id },
    });
  }
  for (const feature of view.features) {
    for (const item of feature.testList) {
      const ref = { featureId: feature.id, itemId: item.id };
      const key = `${safeId(feature.id)}-${safeId(item.id)}`;
      const text = item.description || 'No description';
      commands.push({
        id: `item-${key}`,
        group: 'Items',
        label: `${item.id} · ${text}`,
        hint: feature.name,
        keywords: `item card ${item.acId} ${feature.id}`,
        action: { kind: 'item', ref, tab: 'ac' },
      });
      commands.push({
        id: `evidence-${key}`,
        group: 'Items',
        label: `Open evidence of ${item.id}`,
        hint: feature.name,
        keywords: `ledger records ${feature.id}`,
        action: { kind: 'item', ref, tab: 'evidence' },
      });
    }
  }
  return commands;
}

const WORD_START = /[\s\-·:(/_.]/;

/**
 * How well `query` matches `text`, lower is better, or null for no match. Each word typed must
 * appear: at the start (0), at a word's start (1), inside a word (2), or failing that as letters in
 * order (10 plus the letters skipped between them).
 */
export function matchScore(query: string, text: string): number | null {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const haystack = text.toLowerCase();
  let total = 0;
  for (const word of words) {
    const at = haystack.indexOf(word);
    if (at >= 0) {
      total += at === 0 ? 0 : WORD_START.test(haystack[at - 1] ?? '') ? 1 : 2;
      continue;
    }
    let pos = -1;
    let gaps = 0;
    for (const letter of word) {
      const next = haystack.indexOf(letter, pos + 1);
      if (next < 0) return null;
      if (pos >= 0) gaps += next - pos - 1;
      pos = next;
    }
    total += 10 + gaps;
  }
  return total;
}

/**
 * The commands matching `query`, best first (ties keep the list's order), at most `limit`. The
 * label counts before the keywords: a match found only in the keywords ranks after any in a label.
 */
export function filterCommands(commands: readonly Command[], query: string, limit = 50): Command[] {
  if (query.trim() === '') return commands.slice(0, limit);
  const scored: { command: Command; score: number; index: number }[] = [];
  commands.forEach((command, index) => {
    const inLabel = matchScore(query, command.label);
    const score = inLabel ?? matchScore(query, `${command.label} ${command.hint} ${command.keywords}`);
    if (score !== null) scored.push({ command, score: inLabel === null ? score + 100 : score, index });
  });
  return scored
    .sort((a, b) => a.score - b.score || a.index - b.index)
    .slice(0, limit)
    .map(({ command }) => command);
}
