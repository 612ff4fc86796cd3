/**
 * The Settings screen's project settings (issue 35 part 6): the keys a Product Owner tunes read from
 * `.baton/project.json`, checked and saved through the one schema and the one writer
 * (project/write-settings.ts) with everything else in the file kept. The webhook's URL is a secret:
 * it is shown masked, and no answer, error or log line carries it.
 */
import type { ProjectView } from '../../shared/model';
import {
  maskWebhook,
  TUNABLE_KEYS,
  type ProjectSettingsView,
  type SettingsChanges,
  type SettingsIssue,
  type TunableSettings,
} from '../../shared/project-settings';
import { readOnlyReason, writableProject } from '../../shared/read-only';
import { err, ok, type Result } from '../../shared/result';
import { readSettings } from '../project/read-settings';
import { replaceSettings, settingsIssues } from '../project/write-settings';

const NO_PROJECT = 'No project is open. Open a project folder first.';

export async function projectSettings(view: ProjectView | null): Promise<Result<ProjectSettingsView>> {
  if (!view) return err('no-project', NO_PROJECT);
  const readOnly = readOnlyReason(view, 'changes');
  const read = await readSettings(view.artifactRoot);
  // A Consort project or a bundle without project.json: nothing to show but the defaults, and no Save.
  if (!read.ok) return read.error.code === 'no-settings' && readOnly ? ok({ settings: {}, webhook: { kind: 'none' }, readOnly, file: null }) : read;
  const all = read.value.settings;
  const settings: Record<string, unknown> = {};
  for (const key of TUNABLE_KEYS) if (key !== 'notify' && all[key] !== undefined) settings[key] = all[key];
  return ok({ settings: settings as TunableSettings, webhook: maskWebhook(all.notify?.webhook), readOnly, file: read.value.file });
}

/** The file's JSON with `changes` applied (null: the key removed), and what the schema says of it. */
async function applied(view: ProjectView, changes: SettingsChanges): Promise<Result<{ file: string; json: Record<string, unknown>; issues: SettingsIssue[] }>> {
  const read = await readSettings(view.artifactRoot);
  if (!read.ok) return read;
  const json = JSON.parse(read.value.text) as Record<string, unknown>;
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete json[key];
    else json[key] = value;
  }
  return ok({ file: read.value.file, json, issues: settingsIssues(json).map(secretless) });
}

/** What project.json's schema would refuse in these changes (none: they may be saved). Writes nothing. */
export async function checkProjectSettings(view: ProjectView | null, changes: SettingsChanges): Promise<Result<{ readonly issues: readonly SettingsIssue[] }>> {
  if (!view) return err('no-project', NO_PROJECT);
  const next = await applied(view, changes);
  return next.ok ? ok({ issues: next.value.issues }) : next;
}

/** Saves the changes when the whole file still validates; otherwise refuses, saying which key and why, and writes nothing. */
export async function saveProjectSettings(view: ProjectView | null, changes: SettingsChanges): Promise<Result<ProjectSettingsView>> {
  if (!view) return err('no-project', NO_PROJECT);
  const writable = writableProject(view, 'changes');
  if (!writable.ok) return writable;
  const next = await applied(view, changes);
  if (!next.ok) return next;
  if (next.value.issues.length > 0)
    return err('invalid-settings', `Not saved: ${next.value.issues.map((i) => `${i.path} ${i.message}`).join('; ')}. ${next.value.file} is unchanged.`);
  const saved = await replaceSettings(next.value.file, next.value.json);
  if (!saved.ok) return saved;
  return projectSettings(view);
}

/** An issue as a person may read it: zod's words never quote a value, but a path into `notify` is cut at the key. */
const secretless = (issue: SettingsIssue): SettingsIssue => (issue.path.startsWith('notify.') ? { ...issue, path: 'notify.webhook' } : issue);
