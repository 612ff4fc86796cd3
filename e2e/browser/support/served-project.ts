/**
 * Registers a fresh Baton project and a `baton serve` of it around a spec file's tests.
 * `prepare` runs before serving (e.g. approvals through the CLI); `target` picks what to serve
 * (the folder, or a bundle exported from it).
 */
import { test } from '@playwright/test';
import { makeBatonProject, type BatonProject } from './baton-project';
import { serve, type Served } from './serve';

interface Options {
  readonly features?: readonly string[];
  prepare?(project: BatonProject): void;
  target?(project: BatonProject): string;
}

export function servedProject(options: Options = {}): () => { project: BatonProject; served: Served } {
  let project: BatonProject | undefined;
  let served: Served | undefined;
  test.beforeAll(async () => {
    project = makeBatonProject(options.features);
    options.prepare?.(project);
    served = await serve(options.target?.(project) ?? project.dir);
  });
  test.afterAll(async () => {
    await served?.stop();
    project?.remove();
  });
  return () => {
    if (!project || !served) throw new Error('The Baton project was not served: beforeAll failed, see its error above.');
    return { project, served };
  };
}
