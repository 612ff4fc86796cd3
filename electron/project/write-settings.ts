/** The one writer of `.baton/project.json`: validated by the schema, written whole and renamed into place. */
import path from 'node:path';
import { err, ok, type Result } from '../../shared/result';
import { writeFileAtomic } from '../platform/atomic-write';
import type { SettingsIssue } from '../../shared/project-settings';
import { projectSettingsSchema } from './settings';

/** What project.json's schema refuses in `json`, each with its key path; none when it validates. */
export function settingsIssues(json: Record<string, unknown>): SettingsIssue[] {
  const parsed = projectSettingsSchema.safeParse(json);
  return parsed.success ? [] : parsed.error.issues.map((i) => ({ path: i.path.join('.') || '(top level)', message: i.message }));
}

/** Replaces `file` with `json` when it validates; otherwise an error naming what is wrong, and the file unchanged. */
export async function replaceSettings(file: string, json: Record<string, unknown>): Promise<Result<void>> {
  const issues = settingsIssues(json);
  if (issues.length > 0) return err('invalid-request', `Not saved: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}. project.json is unchanged.`);
  // Written whole, then renamed: a crash never leaves half a project.json; never through a link at
  // `.baton/` (the project folder, two up from `.baton/project.json`, is the boundary).
  await writeFileAtomic(file, `${JSON.stringify(json, null, 2)}\n`, { root: path.dirname(path.dirname(file)) });
  return ok(undefined);
}
