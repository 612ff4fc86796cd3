/**
 * The one reader of `.baton/project.json`: its settings validated by the schema, or an error that
 * says which file, what is wrong and what to do. Every caller (the run, branches, the CLI) reads
 * settings here, so a broken file is reported the same way everywhere.
 */
import { dirname, join } from 'node:path';
import { err, ok, type Result } from '../../shared/result';
import { isSafeReadError, readRegularFile } from '../platform/safe-read';
import { MAX_ARTIFACT_BYTES } from './read-context';
import { hazardMessage, parseJsonText } from './json-locate';
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
  let text: string;
  try {
    // A regular file inside the project (a symlink inside it is followed), at most 10 MB: a FIFO, a
    // device or a link out of the project is refused at once instead of hanging or leaking.
    text = (await readRegularFile(file, { maxBytes: MAX_ARTIFACT_BYTES, root: dirname(artifactRoot), followInside: true })).toString('utf8');
  } catch (error) {
    if (!isSafeReadError(error) || error.reason === 'missing') {
      return err('no-settings', `${file} is missing: this is not a Baton project. Run \`baton init ${join(artifactRoot, '..')}\` to create it.`);
    }
    return err('invalid-settings', `${file} ${error.detail}. Fix it, then try again.`);
  }
  const json = parseJsonText(text);
  if (!json.ok) return err('invalid-settings', `${file} is not valid JSON (${json.detail}). Fix it, then try again.`);
  if (json.hazard !== null) return err('invalid-settings', `${file} ${hazardMessage(json.hazard)}, then try again.`);
  const parsed = projectSettingsSchema.safeParse(json.value);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(top level)'}: ${issue.message}`).join('; ');
    return err('invalid-settings', `${file} has invalid settings: ${detail}. Fix them (or rewrite the file with \`baton init --force\`), then try again.`);
  }
  return ok({ settings: parsed.data, text, file });
}

/**
 * `gateIgnore` of `<artifactRoot>/project.json`: the globs of files under a gate's folders that no
 * gate counts (electron/gates/definitions.ts). None when the file is missing (a Consort project) or
 * does not validate: then every file counts, which can only show more drift, never less.
 */
export async function readGateIgnore(artifactRoot: string): Promise<readonly string[]> {
  const read = await readSettings(artifactRoot);
  return read.ok ? (read.value.settings.gateIgnore ?? []) : [];
}
