/** Where a feature's files are on disk, found once per read. */
import path from 'node:path';
import type { ProjectView } from '../../shared/model';
import { featureFolders, storyFolders } from './locate';

/** Where a feature's files are: the project root (the boundary) and the feature folder, if any. */
export interface FeatureSite {
  readonly root: string;
  readonly featureDir: string | null;
  /** Where the feature's folder is or would be (`<artifactRoot>/features/<id>`), to name missing files. */
  readonly expectedDir: string;
  /** Story id → folder under `stories/`. */
  readonly stories: ReadonlyMap<string, string>;
}

/** The folders of every feature in the artifact root, by id, with their story folders. */
export const featureSites = async (view: ProjectView): Promise<(feature: string) => Promise<FeatureSite>> => {
  const folders = await featureFolders(view.artifactRoot);
  return async (feature) => {
    const featureDir = folders.get(feature) ?? null;
    const expectedDir = featureDir ?? path.join(view.artifactRoot, 'features', feature);
    return { root: view.root, featureDir, expectedDir, stories: featureDir ? await storyFolders(featureDir) : new Map() };
  };
};
