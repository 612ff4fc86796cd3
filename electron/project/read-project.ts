/**
 * Reads a Baton or Consort project into the ProjectView the renderer and `baton inspect` show.
 * Only a missing folder or one with no artifacts at all is an error; everything wrong inside a
 * project is a located Problem, and the rest of the project still loads.
 */
import path from 'node:path';
import type { Feature, Gate, ProjectView } from '../../shared/model';
import { ok, type Result } from '../../shared/result';
import { detectLayout } from './detect-layout';
import { naturalCompare } from './fields';
import { createContext, listDir, readJson, type ReadContext } from './read-context';
import { readFeature, type FeatureRead } from './read-feature';
import { readGatesFile } from './read-gates';
import { projectName } from './project-name';

/** Top-level artifacts that are only checked to parse (their content is shown elsewhere, later). */
const VALIDATED_ONLY = ['smells.json'] as const;

interface SprintGates {
  readonly featureId: string | null;
  readonly gates: readonly Gate[];
}

/** Sprint gates (`sprints/<S>/gates.json`) belong to the feature their `feature_id` names. */
const readSprints = async (ctx: ReadContext, artifactRoot: string): Promise<SprintGates[]> => {
  const sprints = (await listDir(ctx, path.join(artifactRoot, 'sprints')))
    .filter((entry) => entry.isDirectory && !entry.name.startsWith('.'))
    .sort((a, b) => naturalCompare(a.name, b.name));
  return Promise.all(
    sprints.map(async (sprint) => {
      const [gates] = await Promise.all([
        readGatesFile(ctx, path.join(sprint.path, 'gates.json'), sprint.name),
        readJson(ctx, path.join(sprint.path, 'backlog.json')),
      ]);
      return gates;
    }),
  );
};

const attachSprintGates = (reads: readonly FeatureRead[], sprints: readonly SprintGates[]): Feature[] =>
  reads.map(({ feature, folder }) => {
    const extra = sprints
      .filter((sprint) => sprint.featureId !== null && (sprint.featureId === feature.id || sprint.featureId === folder))
      .flatMap((sprint) => sprint.gates);
    return extra.length === 0 ? feature : { ...feature, gates: [...feature.gates, ...extra] };
  });

export const readProject = async (dir: string): Promise<Result<ProjectView>> => {
  const detected = await detectLayout(dir);
  if (!detected.ok) return detected;
  const { root, layout, artifactRoot } = detected.value;
  const ctx = await createContext(root, layout);
  ctx.problems.push(...detected.value.problems);

  const folders = (await listDir(ctx, path.join(artifactRoot, 'features'))).filter((entry) => entry.isDirectory && !entry.name.startsWith('.'));
  const [reads, sprints, workflow] = await Promise.all([
    Promise.all(folders.map((entry) => readFeature(ctx, artifactRoot, entry.path, entry.name, layout))),
    readSprints(ctx, artifactRoot),
    readJson(ctx, path.join(artifactRoot, 'workflow-state.json')),
    ...VALIDATED_ONLY.map((name) => readJson(ctx, path.join(artifactRoot, name))),
    // project.json is Baton's settings file; another module interprets it, this one reports a broken one.
    ...(layout === 'baton' ? [readJson(ctx, path.join(artifactRoot, 'project.json'))] : []),
  ]);
  const features = attachSprintGates(reads, sprints).sort((a, b) => naturalCompare(a.id, b.id));
  const name = await projectName(ctx, { root, artifactRoot, layout, workflowState: workflow.state === 'ok' ? workflow.value : null });

  // Files are read in parallel; sorting makes the report the same on every run.
  const problems = [...ctx.problems].sort((a, b) => naturalCompare(a.file, b.file) || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
  return ok({
    root,
    name,
    layout,
    artifactRoot,
    readOnly: layout !== 'baton',
    bundle: null,
    features,
    problems,
  });
};
