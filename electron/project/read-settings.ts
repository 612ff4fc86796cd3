/**
 * The one reader of `.baton/project.json`: its settings validated by the schema, or an error that
 * says which file, what is wrong and what to do. Every caller (the run, branches, the CLI) reads
 * settings here, so a broken file is reported the same way everywhere.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { err, ok, type Result } from '../../shared/result';
import { projectSettingsSchema, type ProjectSettings } from './settings';

export interface SettingsFile {
  readonly settings: ProjectSettings;
  /** The file's text, so a later call can tell whether it changed. */
  readonly text: string;
  readonly file: string;
}

/** Reads `<artifactRoot>/project.json` (`artifactRoot` is the project's `.baton` folder). */
export async function readSettings(artifactRoot: string): Promise<Result<SettingsFile>> {
  const file = join(artifactRoot, 'project.json');
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) {
    return err('no-settings', `${file} is missing: this is not a Baton project. Run \`baton init ${join(artifactRoot, '..')}\` to create it.`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    return err('invalid-settings', `${file} is not valid JSON (${(cause as Error).message}). Fix it, then try again.`);
  }
  const parsed = projectSettingsSchema.safeParse(json);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(top level)'}: ${issue.message}`).join('; ');
    return err('invalid-settings', `${file} has invalid settings: ${detail}. Fix them (or rewrite the file with \`baton init --force\`), then try again.`);
  }
  return ok({ settings: parsed.data, text, file });
}
