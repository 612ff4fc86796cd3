/**
 * Whose signatures count. Three lists, joined: `trustedKeys` in the project's project.json (the
 * team's keys, reviewed with the code), this user's `trusted-keys.json` in the config folder (keys a
 * reviewer decided to trust, whatever the folder says), and this user's own keys (current and
 * retired). project.json travels with the folder, so someone who can rewrite the folder can add a
 * key there too: a reviewer who must not depend on the folder keeps the keys in their own list and
 * runs `baton verify --strict --own-trust`.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { TrustedKeys } from '../ledger/signing';
import { ownPublicKeys } from '../ledger/signing';
import { readSettings } from '../project/read-settings';
import { trustedKeySchema } from '../project/settings';

export const TRUSTED_KEYS_FILE = 'trusted-keys.json';

const userFileSchema = z.strictObject({ trustedKeys: z.array(trustedKeySchema) });

type Entry = z.infer<typeof trustedKeySchema>;
const keyOf = (e: Entry) => (typeof e === 'string' ? e : e.key);
const nameOf = (e: Entry, source: string) => (typeof e !== 'string' && e.name ? `${e.name} (${source})` : source);

export interface TrustLists {
  readonly keys: TrustedKeys;
  /** A list that could not be read: verify reports it rather than trusting less in silence. */
  readonly problems: readonly { file: string; message: string }[];
}

/** The keys trusted for the project at `artifactRoot` (null: a layout without project.json) by the user of `configDir`. */
export async function trustedKeys(configDir: string, artifactRoot: string | null, options: { ownOnly?: boolean } = {}): Promise<TrustLists> {
  const keys = new Map<string, string>();
  const problems: { file: string; message: string }[] = [];
  for (const key of await ownPublicKeys(configDir)) keys.set(key, 'your own signing key');
  const userFile = join(configDir, TRUSTED_KEYS_FILE);
  const text = await readFile(userFile, 'utf8').catch(() => null);
  if (text !== null) {
    let parsed: z.ZodSafeParseResult<z.infer<typeof userFileSchema>> | null = null;
    try {
      parsed = userFileSchema.safeParse(JSON.parse(text));
    } catch (error) {
      problems.push({ file: userFile, message: `is not valid JSON (${(error as Error).message}); its keys are not trusted until it is fixed` });
    }
    if (parsed && !parsed.success) {
      problems.push({
        file: userFile,
        message: `is not {"trustedKeys": [key or {key, name}]} (${parsed.error.issues[0]?.message}); its keys are not trusted until it is fixed`,
      });
    }
    for (const entry of parsed?.success ? parsed.data.trustedKeys : []) keys.set(keyOf(entry), nameOf(entry, 'your trusted-keys.json'));
  }
  if (artifactRoot !== null && !options.ownOnly) {
    const settings = await readSettings(artifactRoot);
    for (const entry of settings.ok ? (settings.value.settings.trustedKeys ?? []) : []) {
      if (!keys.has(keyOf(entry))) keys.set(keyOf(entry), nameOf(entry, 'project.json trustedKeys'));
    }
  }
  return { keys, problems };
}
