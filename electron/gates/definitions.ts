/**
 * What each gate covers and what it waits for. Artifact paths are relative to the feature folder
 * (`<artifactRoot>/features/<F>/`) and `/`-separated, as Consort's `artifact_hashes` keys are, so
 * one convention serves both layouts.
 */
import path from 'node:path';
import { GATE_NAMES, PREREQUISITE, type GateName } from '../../shared/ledger';

export { PREREQUISITE };
import { matchesAny } from '../../shared/glob';
import { naturalCompare } from '../project/fields';
import { readGateIgnore } from '../project/read-settings';
import { featureFolder, filesBelow, listEntries, storyFolders } from './locate';

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

/**
 * What no gate counts, whatever project.json says: files operating systems leave in folders. Add to
 * it with `gateIgnore` in project.json (globs on the path inside the feature folder).
 */
export const BUILT_IN_GATE_IGNORE: readonly string[] = ['**/.DS_Store', '**/Thumbs.db'];

/** Files Baton itself reads as stories and acceptance criteria: always counted, never ignorable. */
const READ_BY_BATON = /^stories\/[^/]+\/(?:story\.json|acs\/[^/]+\.json)$/;

/** Where a gate's files are looked for, and which of them an ignore list leaves out. */
interface Scope {
  readonly featureDir: string;
  /** The artifact root: a symlinked folder is followed only inside it. */
  readonly boundary: string;
  readonly ignore: readonly string[];
}

/** A feature folder is always `<artifactRoot>/features/<folder>` (locate.ts), so its settings are two levels up. */
const scopeOf = async (featureDir: string): Promise<Scope> => {
  const artifactRoot = path.dirname(path.dirname(featureDir));
  return { featureDir, boundary: artifactRoot, ignore: [...BUILT_IN_GATE_IGNORE, ...(await readGateIgnore(artifactRoot))] };
};

/**
 * Every file under `<featureDir>/<folder>` (hidden ones, any extension, any depth), as paths inside
 * the feature folder, less what the ignore list names. A folder's files are all content a person
 * approves: what is not counted could change unseen.
 */
const everyFile = async (scope: Scope, folder: string): Promise<string[]> =>
  (await filesBelow(path.join(scope.featureDir, ...folder.split('/')), scope.boundary))
    .map((name) => `${folder}/${name}`)
    .filter((name) => READ_BY_BATON.test(name) || !matchesAny(name, scope.ignore));

/** `stories/<folder>/story.json` (required) and every other file of that story's folder. */
const storyArtifacts = async (scope: Scope, folder: string): Promise<string[]> => [
  `stories/${folder}/story.json`,
  ...(await everyFile(scope, `stories/${folder}`)),
];

const specArtifacts = async (scope: Scope): Promise<string[]> => {
  const { featureDir } = scope;
  // feature-spec.json wins when both exist, as in the reader; when neither does it is the one reported.
  const spec = (await exists(featureDir, 'feature-spec.json')) || !(await exists(featureDir, 'feature.json')) ? 'feature-spec.json' : 'feature.json';
  // Each story the reader shows needs its story.json; every file under stories/ counts (a hidden folder's too).
  const stories = (await listEntries(path.join(featureDir, 'stories')))
    .filter((entry) => entry.isDirectory && !entry.name.startsWith('.'))
    .map((entry) => `stories/${entry.name}/story.json`);
  return [spec, ...stories, ...(await everyFile(scope, 'stories'))];
};

const designArtifacts = async (featureDir: string): Promise<string[]> => {
  const optional = ['db-design.json', 'ux-guide.md', 'ux-guide.json'];
  const present = await Promise.all(optional.map(async (name) => ((await exists(featureDir, name)) ? name : null)));
  return ['architecture.json', ...present.filter((name): name is string => name !== null)];
};

/**
 * The artifacts of one gate in a feature folder, sorted: the files that exist plus the required
 * ones even when missing, so a missing artifact can be named. `storyFolder` is needed for acceptance.
 *
 * The one enumeration every path uses (the evidence shown, the approval recorded, the drift the view
 * and `baton verify` report): the spec gate covers its spec and every file under `stories/`, a
 * story's acceptance every file under `stories/<folder>/`, hidden or not, whatever the extension,
 * less BUILT_IN_GATE_IGNORE and `gateIgnore` of project.json; the other gates cover named files.
 */
export const artifactsIn = async (featureDir: string, gate: GateName, storyFolder: string | null): Promise<string[]> => {
  let names: string[];
  switch (gate) {
    case 'spec':
      names = await specArtifacts(await scopeOf(featureDir));
      break;
    case 'design':
      names = await designArtifacts(featureDir);
      break;
    case 'test_list':
      names = ['test-list.json'];
      break;
    case 'acceptance':
      names = storyFolder === null ? [] : await storyArtifacts(await scopeOf(featureDir), storyFolder);
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
