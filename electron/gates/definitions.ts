/**
 * What each gate covers and what it waits for. Artifact paths are relative to the feature folder
 * (`<artifactRoot>/features/<F>/`) and `/`-separated, as Consort's `artifact_hashes` keys are, so
 * one convention serves both layouts.
 */
import path from 'node:path';
import { GATE_NAMES, PREREQUISITE, type GateName } from '../../shared/ledger';

export { PREREQUISITE };
import { naturalCompare } from '../project/fields';
import { featureFolder, listEntries, storyFolders } from './locate';

/** Every gate that (transitively) waits for `gate`, in gate order: what a withdrawal reopens. */
export const downstreamOf = (gate: GateName): GateName[] => {
  const found = new Set<GateName>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const name of GATE_NAMES) {
      const pre = PREREQUISITE[name];
      if (pre !== null && (pre === gate || found.has(pre)) && !found.has(name)) {
        found.add(name);
        grew = true;
      }
    }
  }
  return GATE_NAMES.filter((name) => found.has(name));
};

export const isGateName = (name: string): name is GateName => (GATE_NAMES as readonly string[]).includes(name);

/** Consort calls the design gate `plan`; other Consort names match Baton's. */
export const batonGateName = (name: string): GateName | null => (name === 'plan' ? 'design' : isGateName(name) ? name : null);

const exists = async (dir: string, name: string): Promise<boolean> => (await listEntries(dir)).some((entry) => entry.name === name && entry.isFile);

/** `stories/<folder>/story.json` (required) and every `acs/*.json` of that story. */
const storyArtifacts = async (featureDir: string, folder: string): Promise<string[]> => {
  const acs = (await listEntries(path.join(featureDir, 'stories', folder, 'acs')))
    .filter((entry) => entry.isFile && entry.name.endsWith('.json'))
    .map((entry) => `stories/${folder}/acs/${entry.name}`);
  return [`stories/${folder}/story.json`, ...acs];
};

const specArtifacts = async (featureDir: string): Promise<string[]> => {
  // feature-spec.json wins when both exist, as in the reader; when neither does it is the one reported.
  const spec = (await exists(featureDir, 'feature-spec.json')) || !(await exists(featureDir, 'feature.json')) ? 'feature-spec.json' : 'feature.json';
  const stories = (await listEntries(path.join(featureDir, 'stories')))
    .filter((entry) => entry.isDirectory && !entry.name.startsWith('.'))
    .map((entry) => entry.name);
  const perStory = await Promise.all(stories.map((folder) => storyArtifacts(featureDir, folder)));
  return [spec, ...perStory.flat()];
};

const designArtifacts = async (featureDir: string): Promise<string[]> => {
  const optional = ['db-design.json', 'ux-guide.md', 'ux-guide.json'];
  const present = await Promise.all(optional.map(async (name) => ((await exists(featureDir, name)) ? name : null)));
  return ['architecture.json', ...present.filter((name): name is string => name !== null)];
};

/**
 * The artifacts of one gate in a feature folder, sorted: the files that exist plus the required
 * ones even when missing, so a missing artifact can be named. `storyFolder` is needed for acceptance.
 */
export const artifactsIn = async (featureDir: string, gate: GateName, storyFolder: string | null): Promise<string[]> => {
  let names: string[];
  switch (gate) {
    case 'spec':
      names = await specArtifacts(featureDir);
      break;
    case 'design':
      names = await designArtifacts(featureDir);
      break;
    case 'test_list':
      names = ['test-list.json'];
      break;
    case 'acceptance':
      names = storyFolder === null ? [] : await storyArtifacts(featureDir, storyFolder);
      break;
    case 'deploy':
    case 'promote':
      names = ['deploy-evidence.json'];
      break;
  }
  return [...new Set(names)].sort(naturalCompare);
};

/** The story's folder under `stories/`: by the id in story.json, else a folder of that name. */
export const storyFolderOf = async (featureDir: string, story: string): Promise<string> => (await storyFolders(featureDir)).get(story) ?? story;

/**
 * `gateArtifacts(artifactRoot, feature, gate, story?)`: the artifacts a gate covers, relative to the
 * feature folder. `feature` and `story` are ids as the reader shows them; an unknown feature lists
 * only the required artifacts (all missing), so a caller can still say what is absent.
 */
export const gateArtifacts = async (artifactRoot: string, feature: string, gate: GateName, story?: string): Promise<string[]> => {
  const dir = (await featureFolder(artifactRoot, feature)) ?? path.join(artifactRoot, 'features', feature);
  const folder = story === undefined ? null : await storyFolderOf(dir, story);
  return artifactsIn(dir, gate, folder);
};
