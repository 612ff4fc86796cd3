/**
 * The feature's design files, as Baton writes them from a role's validated artifact: the Spec
 * Author's spec becomes feature.json, stories/<S>/story.json and stories/<S>/acs/<AC>.json (the old
 * stories go: the spec is the Spec Author's whole answer); the others become one file each. The
 * role never writes the feature folder itself.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { DesignArtifact, DesignRole } from '../../shared/design-artifacts';
import type { GateName } from '../../shared/ledger';
import { readJsonObject } from '../gates/conformance';
import { writeFileInside } from '../platform/contained-write';

export const GATE_OF: Readonly<Record<DesignRole, GateName>> = {
  specAuthor: 'spec',
  architectReviewer: 'design',
  dba: 'design',
  uxDesigner: 'design',
  testStrategist: 'test_list',
};

const FILE_OF: Readonly<Record<Exclude<DesignRole, 'specAuthor'>, string>> = {
  architectReviewer: 'architecture.json',
  dba: 'db-design.json',
  uxDesigner: 'ux-guide.json',
  testStrategist: 'test-list.json',
};

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Every file the role's artifact becomes, by path relative to the feature folder. */
export async function filesFor<R extends DesignRole>(
  role: R,
  artifact: DesignArtifact<R>,
  featureDir: string,
  feature: string,
): Promise<Record<string, string>> {
  if (role !== 'specAuthor') {
    const value =
      role === 'testStrategist' ? { items: (artifact as DesignArtifact<'testStrategist'>).items.map((i) => ({ ...i, status: 'pending' })) } : artifact;
    return { [FILE_OF[role as Exclude<DesignRole, 'specAuthor'>]]: json(value) };
  }
  const spec = artifact as DesignArtifact<'specAuthor'>;
  const before = (await readJsonObject(path.join(featureDir, 'feature.json'))) ?? {};
  const files: Record<string, string> = {
    'feature.json': json({
      id: feature,
      name: spec.feature.name,
      description: spec.feature.description,
      user_interface: spec.feature.user_interface,
      ...(typeof before['request'] === 'string' ? { request: before['request'] } : {}),
    }),
  };
  for (const story of spec.stories) {
    const { acceptance_criteria: acs, ...fields } = story;
    files[`stories/${story.id}/story.json`] = json(fields);
    for (const ac of acs) files[`stories/${story.id}/acs/${ac.id}.json`] = json(ac);
  }
  return files;
}

/** Writes the files (the spec replaces every story) and returns each one's SHA-256. */
export async function writeDesignFiles(role: DesignRole, featureDir: string, files: Readonly<Record<string, string>>): Promise<Record<string, string>> {
  if (role === 'specAuthor') await rm(path.join(featureDir, 'stories'), { recursive: true, force: true });
  const hashes: Record<string, string> = {};
  for (const [name, text] of Object.entries(files)) {
    // Never through a link, never outside the feature's folder, whatever a name says (contained-write.ts).
    await writeFileInside(featureDir, path.join(featureDir, name), text);
    hashes[name] = sha256(text);
  }
  return hashes;
}

/** The feature's current design files as text (what the next role reads), by relative path. */
export async function currentDesignFiles(featureDir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (rel: string): Promise<void> => {
    const entries = await readdir(path.join(featureDir, rel), { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const name = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory() && (name === 'stories' || name.startsWith('stories/'))) await walk(name);
      else if (entry.isFile() && entry.name.endsWith('.json')) out[name] = await readFile(path.join(featureDir, name), 'utf8');
    }
  };
  await walk('');
  return out;
}
