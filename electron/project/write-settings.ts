/** The one writer of `.baton/project.json`: validated by the schema, written whole and renamed into place. */
import { rename, writeFile } from 'node:fs/promises';
import { err, ok, type Result } from '../../shared/result';
import { projectSettingsSchema } from './settings';

/** Replaces `file` with `json` when it validates; otherwise an error naming what is wrong, and the file unchanged. */
export async function replaceSettings(file: string, json: Record<string, unknown>): Promise<Result<void>> {
  const parsed = projectSettingsSchema.safeParse(json);
  if (!parsed.success)
    return err('invalid-request', `Not saved: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}. project.json is unchanged.`);
  // Written whole, then renamed: a crash never leaves half a project.json.
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(json, null, 2)}\n`);
  await rename(temp, file);
  return ok(undefined);
}
