/**
 * A gate's artifacts as they are on disk right now: bytes, hash, text and, when one cannot be
 * approved, why. Shared by decisions and evidence so both judge the same way.
 */
import type { Feature, ProjectView } from '../../shared/model';
import { err, ok, type AppError, type Result } from '../../shared/result';
import type { GateName } from '../../shared/ledger';
import { artifactsIn } from './definitions';
import { currentHash, projectPath, readArtifact, textOf, type ArtifactFile, type CurrentHash } from './files';
import { featureSites, type FeatureSite } from './site';
import { artifactProblem } from '../project/artifact-shapes';
import { readSettings } from '../project/read-settings';
import { RUN_DEPLOYS } from '../../shared/gate-words';

export interface GateRef {
  readonly feature: string;
  readonly story?: string | undefined;
  readonly gate: GateName;
}

export interface ArtifactSnapshot {
  readonly name: string;
  readonly file: ArtifactFile;
  /** null when the file is missing or unreadable. */
  readonly hash: CurrentHash | null;
  readonly text: string | null;
  readonly problem: string | null;
}

/** A gate located on disk: the feature, where its files are, and which files the gate covers. */
export interface LocatedGate {
  readonly feature: Feature;
  readonly story: string | null;
  readonly site: FeatureSite & { readonly featureDir: string };
  readonly names: readonly string[];
}

export const describeRef = (ref: GateRef): string => `the ${ref.gate} gate of ${ref.feature}${ref.story ? `, story ${ref.story}` : ''}`;

/** Finds the feature and story a request names; a wrong combination is refused, never guessed. */
export const locateGate = async (view: ProjectView, ref: GateRef): Promise<Result<LocatedGate>> => {
  const feature = view.features.find((f) => f.id === ref.feature);
  if (!feature) {
    const known = view.features.map((f) => f.id).join(', ') || 'none';
    return err('not-found', `There is no feature "${ref.feature}" in ${view.root} (features: ${known}). Check the feature id.`);
  }
  if (ref.gate === 'acceptance' && !ref.story) {
    return err(
      'invalid-request',
      `The acceptance gate of ${ref.feature} is per story: name the story (one of ${feature.stories.map((s) => s.id).join(', ') || 'none'}).`,
    );
  }
  if (ref.gate !== 'acceptance' && ref.story) {
    return err('invalid-request', `The ${ref.gate} gate belongs to the whole feature ${ref.feature}, not to story ${ref.story}: leave the story out.`);
  }
  if (ref.story && !feature.stories.some((s) => s.id === ref.story)) {
    return err('not-found', `Feature ${ref.feature} has no story "${ref.story}" (stories: ${feature.stories.map((s) => s.id).join(', ') || 'none'}).`);
  }
  const site = await (await featureSites(view))(feature.id);
  if (site.featureDir === null) return err('not-found', `The folder of feature ${ref.feature} is gone from ${view.artifactRoot}/features; reload the project.`);
  const story = ref.story ?? null;
  const names = await artifactsIn(site.featureDir, ref.gate, story === null ? null : (site.stories.get(story) ?? story));
  return ok({ feature, story, site: { ...site, featureDir: site.featureDir }, names });
};

/** What will produce a missing artifact: in a Baton project the deploy evidence is Run's to write, never a person's. */
/**
 * Who writes a missing artifact: Run writes the deploy evidence only when project.json says how to
 * deploy; otherwise a person must set that up (or write the evidence), and the words say so.
 */
const whoWrites = async (name: string, view: ProjectView): Promise<string> => {
  if (name !== 'deploy-evidence.json' || view.layout !== 'baton') return 'create it before this gate can be approved';
  const settings = await readSettings(view.artifactRoot);
  if (settings.ok && settings.value.settings.deploy) return RUN_DEPLOYS;
  return 'no deploy is set up, so Run cannot write it: add "deploy" to .baton/project.json (docs/shipping.md) and run again, or write the evidence yourself';
};

/** Reads and judges every artifact of a located gate. `view` supplies the reader's problems. */
export const snapshotArtifacts = async (view: ProjectView, located: LocatedGate): Promise<ArtifactSnapshot[]> => {
  const { root, featureDir } = located.site;
  return Promise.all(
    located.names.map(async (name): Promise<ArtifactSnapshot> => {
      const file = await readArtifact(root, featureDir, name);
      const where = projectPath(root, featureDir, name);
      if (file.state === 'missing') return { name, file, hash: null, text: null, problem: `${where} is missing; ${await whoWrites(name, view)}` };
      if (file.state === 'unreadable') return { name, file, hash: null, text: null, problem: `${where} ${file.reason}` };
      const hash = currentHash(name, file.bytes, view.layout);
      const text = textOf(file.bytes);
      // The reader's problems name files relative to the project root, as `where` is.
      const reported = view.problems.find((p) => p.file === where)?.message;
      const why = artifactProblem(name, text, view.layout) ?? hash.error ?? reported ?? null;
      return { name, file, hash, text, problem: why === null ? null : `${where} ${why}` };
    }),
  );
};

/** The first artifact problem as an error: missing files first, since nothing else can be judged. */
export const artifactError = (snapshots: readonly ArtifactSnapshot[], ref: GateRef): AppError | null => {
  const missing = snapshots.filter((s) => s.file.state === 'missing');
  if (missing.length > 0) {
    return { code: 'missing-artifact', message: `Cannot approve ${describeRef(ref)}: ${missing.map((s) => s.problem).join('; ')}.` };
  }
  const invalid = snapshots.filter((s) => s.problem !== null);
  if (invalid.length > 0) {
    return {
      code: 'invalid-artifact',
      message: `Cannot approve ${describeRef(ref)}: ${invalid.map((s) => s.problem).join('; ')}. Fix the file, then review it again.`,
    };
  }
  return null;
};

/** name → sha256 of what is on disk now, for the artifacts that exist. */
export const currentHashes = (snapshots: readonly ArtifactSnapshot[]): Record<string, string> =>
  Object.fromEntries(snapshots.flatMap((s) => (s.hash ? [[s.name, s.hash.sha256]] : [])));
