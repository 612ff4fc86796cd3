/**
 * The project settings a Product Owner tunes from the Settings screen (issue 35 part 6): who may
 * decide each gate, the repair budget, parallel lanes, the test timeout, deploy, the webhook, the
 * mutation threshold and the smell thresholds — the keys of `.baton/project.json` the screen edits,
 * what it shows of them, and the per-key diff it asks a person to confirm. Pure: the values are
 * validated by project.json's one schema in main (electron/project/settings.ts), never here.
 */
import { z } from 'zod';
import { jsonHazard } from './json-safety';
import type { GateName } from './ledger';

/** No tunable setting nests deeper than this (`gates.acceptance[0]`); a deeper request is refused before it is walked. */
const MAX_SETTINGS_DEPTH = 8;

/** The top-level keys of project.json the screen may change; a save names no other. */
export const TUNABLE_KEYS = ['gates', 'approverRoles', 'repairBudget', 'parallel', 'testTimeoutSeconds', 'deploy', 'mutation', 'smells', 'notify'] as const;
export type TunableKey = (typeof TUNABLE_KEYS)[number];

export interface DeploySettings {
  readonly start: string;
  readonly health?: string;
  readonly verify: string;
  readonly readySeconds?: number;
  readonly verifyTimeoutSeconds?: number;
  readonly target?: string;
}

/** The tunable settings as project.json holds them (absent: the default), without the webhook's secret. */
export interface TunableSettings {
  readonly gates?: Readonly<Partial<Record<GateName, readonly string[]>>>;
  readonly approverRoles?: Readonly<Record<string, readonly string[]>>;
  readonly repairBudget?: number;
  readonly parallel?: number;
  readonly testTimeoutSeconds?: number;
  readonly deploy?: DeploySettings;
  readonly mutation?: { readonly enabled?: boolean; readonly strengthen?: boolean; readonly minScore?: number; readonly maxMutants?: number };
  readonly smells?: {
    readonly stallFactor?: number;
    readonly rubberStampSeconds?: number;
    readonly gateWaitHours?: number;
    readonly repeatedViolations?: number;
  };
}

/** What the screen is shown of `notify.webhook`: never the URL, which is a secret (electron/notify/webhook.ts). */
export type WebhookView = { readonly kind: 'none' } | { readonly kind: 'env'; readonly name: string } | { readonly kind: 'url'; readonly masked: string };

export interface ProjectSettingsView {
  readonly settings: TunableSettings;
  readonly webhook: WebhookView;
  /** Why nothing can be saved here (a Consort project, a bundle); null when it can. */
  readonly readOnly: string | null;
  /** Where the settings live, for the words next to Save; null when the project has no project.json. */
  readonly file: string | null;
}

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
/** A change the screen sends: the key's new value as project.json should hold it, or null to remove the key (its default applies). */
export type SettingsChanges = Partial<Record<TunableKey, Json>>;

/** The request of `settings:check` and `settings:save`; the values are checked by project.json's schema in main. */
export const settingsChangesSchema = z.strictObject({
  // Checked for depth first, without recursion: z.json() walks recursively and a 100,000-deep array would overflow the stack.
  changes: z
    .custom<SettingsChanges>(
      (raw) => jsonHazard(raw, undefined, MAX_SETTINGS_DEPTH) === null,
      `is not JSON settings (nested deeper than ${MAX_SETTINGS_DEPTH} levels, or holding a value JSON cannot)`,
    )
    .pipe(z.partialRecord(z.enum(TUNABLE_KEYS), z.json()))
    .refine((c) => Object.keys(c).length > 0, 'names no change: there is nothing to save'),
});

/** One value project.json's schema refuses: its path (`smells.stallFactor`) and why. */
export interface SettingsIssue {
  readonly path: string;
  readonly message: string;
}

/**
 * What a person may be shown of a webhook setting: `env:NAME` as it is (the name is no secret),
 * a URL as its scheme and host only — the path, query and any user:password hold the secret.
 */
export function maskWebhook(setting: string | undefined | null): WebhookView {
  if (!setting) return { kind: 'none' };
  const env = /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(setting);
  if (env) return { kind: 'env', name: env[1]! };
  const url = /^([a-z][a-z0-9+.-]*:)\/\/(?:[^@/?#]*@)?([^/?#:]*)/i.exec(setting);
  return { kind: 'url', masked: url && url[2] ? `${url[1]!.toLowerCase()}//${url[2].toLowerCase()}/…` : '(a value that is not a URL)' };
}

/** The words for a webhook setting in a diff or a field. */
export const webhookWords = (view: WebhookView): string =>
  view.kind === 'none' ? '(none)' : view.kind === 'env' ? `env:${view.name}` : `${view.masked} (hidden)`;

/** One row of the confirm step: a leaf key, its value before and after, in words. */
export interface SettingsDiffRow {
  readonly key: string;
  readonly from: string;
  readonly to: string;
}

const DEFAULT_WORDS = '(default)';

const words = (value: unknown): string =>
  value === undefined || value === null
    ? DEFAULT_WORDS
    : Array.isArray(value)
      ? value.map(String).join(', ')
      : typeof value === 'string'
        ? `"${value}"`
        : String(value);

/** The leaves of a value: `{a: {b: 1}}` → `a.b: 1`; arrays and scalars are leaves. */
function leaves(prefix: string, value: unknown, out: Map<string, unknown>): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) leaves(`${prefix}.${k}`, v, out);
  } else if (value !== undefined) out.set(prefix, value);
}

/** JSON with every object's keys sorted: `{start, verify}` and `{verify, start}` are the same setting. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
const same = (a: unknown, b: unknown): boolean => canonical(a) === canonical(b);

/**
 * The changes from `before` to `after`, key by key: the top-level keys whose value differs, each
 * with its new value (null: removed). The webhook is not among them: it is never in `before`.
 */
export function changesOf(before: TunableSettings, after: TunableSettings): SettingsChanges {
  const changes: Record<string, unknown> = {};
  for (const key of TUNABLE_KEYS) {
    if (key === 'notify') continue;
    const from = before[key];
    const to = after[key];
    if (!same(from ?? null, to ?? null)) changes[key] = to ?? null;
  }
  // Settings are JSON (they were read from project.json or built from text fields).
  return changes as SettingsChanges;
}

/**
 * Every changed leaf, old → new, in the order of TUNABLE_KEYS, for the confirm step. `webhook`
 * is the webhook before and after (masked on both sides, so the diff never shows the secret).
 */
export function settingsDiff(
  before: TunableSettings,
  after: TunableSettings,
  webhook?: { readonly from: WebhookView; readonly to: WebhookView },
): SettingsDiffRow[] {
  const rows: SettingsDiffRow[] = [];
  for (const key of TUNABLE_KEYS) {
    if (key === 'notify') {
      if (webhook && !same(webhook.from, webhook.to)) rows.push({ key: 'notify.webhook', from: webhookWords(webhook.from), to: webhookWords(webhook.to) });
      continue;
    }
    const from = new Map<string, unknown>();
    const to = new Map<string, unknown>();
    leaves(key, before[key], from);
    leaves(key, after[key], to);
    const paths = [...new Set([...from.keys(), ...to.keys()])];
    for (const path of paths) {
      if (!same(from.get(path), to.get(path))) rows.push({ key: path, from: words(from.get(path)), to: words(to.get(path)) });
    }
  }
  return rows;
}
