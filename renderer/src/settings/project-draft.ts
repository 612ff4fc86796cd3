/**
 * The project settings form as text fields, and back: each field names the project.json key it
 * edits, so a value main's schema refuses is said next to its field. This only turns text into
 * numbers and lists (and says when it cannot); whether a value is allowed is main's one schema.
 */
import { GATE_NAMES } from '../../../shared/ledger';
import { maskWebhook, type SettingsChanges, type SettingsIssue, type TunableSettings, type WebhookView } from '../../../shared/project-settings';

export type FieldKind = 'int' | 'number' | 'text' | 'list' | 'roles' | 'switch';

export interface Field {
  /** The key in project.json, dotted (`smells.stallFactor`); also the field's id. */
  readonly path: string;
  readonly label: string;
  readonly kind: FieldKind;
  /** What applies when it is empty. */
  readonly placeholder?: string;
  readonly hint?: string;
}

export interface FieldGroup {
  readonly key: 'gates' | 'cycle' | 'deploy' | 'mutation' | 'smells';
  readonly title: string;
  readonly about: string;
  readonly fields: readonly Field[];
}

export const GROUPS: readonly FieldGroup[] = [
  {
    key: 'gates',
    title: 'Who may decide each gate',
    about: 'Emails and @roles, separated by commas. A gate left empty can be decided by anyone who gives a name.',
    fields: [
      ...GATE_NAMES.map((gate): Field => ({ path: `gates.${gate}`, label: gate, kind: 'list', placeholder: 'anyone' })),
      {
        path: 'approverRoles',
        label: 'Roles',
        kind: 'roles',
        placeholder: 'po: ada@example.com, bob@example.com',
        hint: 'One role a line: its name, a colon, its emails.',
      },
    ],
  },
  {
    key: 'cycle',
    title: 'The cycle',
    about: 'How hard the loop tries before it asks you, and how much runs at once.',
    fields: [
      { path: 'repairBudget', label: 'Repair budget', kind: 'int', placeholder: '3', hint: 'Repair rounds before an item escalates (0–10).' },
      { path: 'parallel', label: 'Parallel lanes', kind: 'int', placeholder: "the machine's cores", hint: 'Independent stories built at once (1–32).' },
      { path: 'testTimeoutSeconds', label: 'Test timeout (s)', kind: 'int', placeholder: '600' },
    ],
  },
  {
    key: 'deploy',
    title: 'Deploy',
    about: 'How the orchestrator starts the feature and checks it; leave all empty for no deploy.',
    fields: [
      { path: 'deploy.start', label: 'Start command', kind: 'text', placeholder: 'node server.js' },
      { path: 'deploy.health', label: 'Health path', kind: 'text', placeholder: '/health' },
      { path: 'deploy.verify', label: 'Verify command', kind: 'text', placeholder: 'npm run smoke' },
      { path: 'deploy.readySeconds', label: 'Ready within (s)', kind: 'int', placeholder: '60' },
      { path: 'deploy.verifyTimeoutSeconds', label: 'Verify timeout (s)', kind: 'int', placeholder: 'none' },
      { path: 'deploy.target', label: 'Target', kind: 'text', placeholder: 'local' },
    ],
  },
  {
    key: 'mutation',
    title: 'Mutation testing',
    about: "After each item's GREEN, mutants of the changed lines its locked tests must kill.",
    fields: [
      { path: 'mutation.enabled', label: 'Enabled', kind: 'switch', placeholder: 'on' },
      { path: 'mutation.minScore', label: 'Minimum score', kind: 'number', placeholder: '0.6', hint: 'The share of mutants killed, 0 to 1.' },
      { path: 'mutation.maxMutants', label: 'Mutants per item', kind: 'int', placeholder: '16' },
      { path: 'mutation.strengthen', label: 'Strengthen weak items', kind: 'switch', placeholder: 'on' },
    ],
  },
  {
    key: 'smells',
    title: 'Smell thresholds',
    about: 'When the smell report (Metrics, baton metrics --smells) flags something.',
    fields: [
      { path: 'smells.stallFactor', label: 'Stall factor', kind: 'number', placeholder: '3', hint: "A turn this many times its step's median is a stall." },
      { path: 'smells.rubberStampSeconds', label: 'Rubber stamp (s)', kind: 'number', placeholder: '30', hint: 'An approval with the evidence open for less.' },
      { path: 'smells.gateWaitHours', label: 'Gate wait (h)', kind: 'number', placeholder: '24' },
      { path: 'smells.repeatedViolations', label: 'Repeated violations', kind: 'int', placeholder: '2' },
    ],
  },
];

export const FIELDS: readonly Field[] = GROUPS.flatMap((g) => g.fields);

export interface ProjectDraft {
  /** Field path → its text (`switch`: '', 'true' or 'false'). */
  readonly values: Readonly<Record<string, string>>;
  /** A new webhook (a URL or env:NAME), typed; empty: keep the one set. */
  readonly webhook: string;
  /** Remove the webhook. */
  readonly clearWebhook: boolean;
}

const at = (settings: TunableSettings, path: string): unknown =>
  path.split('.').reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), settings);

function text(field: Field, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (field.kind === 'list') return (value as string[]).join(', ');
  if (field.kind === 'roles')
    return Object.entries(value as Record<string, string[]>)
      .map(([role, emails]) => `${role}: ${emails.join(', ')}`)
      .join('\n');
  return String(value);
}

export const draftOf = (settings: TunableSettings): ProjectDraft => ({
  values: Object.fromEntries(FIELDS.map((f) => [f.path, text(f, at(settings, f.path))])),
  webhook: '',
  clearWebhook: false,
});

const entries = (t: string): string[] =>
  t
    .split(/[,\n]/)
    .map((e) => e.trim())
    .filter(Boolean);

/** The value a field's text says, undefined when empty, or what is wrong with it. */
function valueOf(field: Field, raw: string): { value: unknown } | { problem: string } {
  const t = raw.trim();
  if (t === '') return { value: undefined };
  switch (field.kind) {
    case 'int':
    case 'number': {
      const n = Number(t);
      if (!Number.isFinite(n)) return { problem: 'must be a number' };
      return field.kind === 'int' && !Number.isInteger(n) ? { problem: 'must be a whole number' } : { value: n };
    }
    case 'switch':
      return { value: t === 'true' };
    case 'list':
      return { value: entries(t) };
    case 'roles': {
      const roles: Record<string, string[]> = {};
      for (const line of t.split('\n').filter((l) => l.trim())) {
        const colon = line.indexOf(':');
        if (colon < 1) return { problem: `"${line.trim()}" has no role name: write "po: ada@example.com"` };
        roles[line.slice(0, colon).trim()] = entries(line.slice(colon + 1));
      }
      return { value: roles };
    }
    default:
      return { value: t };
  }
}

/** The settings the draft says, or each field's problem (by path). */
export function settingsOf(draft: ProjectDraft): { settings: TunableSettings } | { problems: SettingsIssue[] } {
  const out: Record<string, unknown> = {};
  const problems: SettingsIssue[] = [];
  for (const field of FIELDS) {
    const got = valueOf(field, draft.values[field.path] ?? '');
    if ('problem' in got) problems.push({ path: field.path, message: got.problem });
    else if (got.value !== undefined) {
      const keys = field.path.split('.');
      let node = out;
      for (const k of keys.slice(0, -1)) node = (node[k] ??= {}) as Record<string, unknown>;
      node[keys.at(-1)!] = got.value;
    }
  }
  return problems.length > 0 ? { problems } : { settings: out as TunableSettings };
}

/** The draft over settings that changed from `was` to `now` elsewhere: each field not edited here takes the new value. */
export function rebased(draft: ProjectDraft, was: TunableSettings, now: TunableSettings): ProjectDraft {
  const before = draftOf(was).values;
  const after = draftOf(now).values;
  return {
    ...draft,
    values: Object.fromEntries(FIELDS.map((f) => [f.path, draft.values[f.path] === before[f.path] ? after[f.path]! : draft.values[f.path]!])),
  };
}

/** The webhook the draft leaves, as the screen may show it. */
export const webhookAfter = (draft: ProjectDraft, before: WebhookView): WebhookView =>
  draft.webhook.trim() ? maskWebhook(draft.webhook.trim()) : draft.clearWebhook ? { kind: 'none' } : before;

/** The webhook's change for a save: a new one, its removal, or none. */
export const webhookChange = (draft: ProjectDraft): SettingsChanges =>
  draft.webhook.trim() ? { notify: { webhook: draft.webhook.trim() } } : draft.clearWebhook ? { notify: null } : {};

/** Which field an issue of main's schema belongs to (`gates.acceptance.0` → `gates.acceptance`); null: said at the top. */
export function fieldOf(issue: SettingsIssue): string | null {
  const owner = FIELDS.filter((f) => issue.path === f.path || issue.path.startsWith(`${f.path}.`)).sort((a, b) => b.path.length - a.path.length)[0];
  return owner?.path ?? null;
}
