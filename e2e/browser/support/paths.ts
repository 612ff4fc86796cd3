/** Folders the browser specs use, resolved from this file so the cwd does not matter. */
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const FIXTURE_DIR = fileURLToPath(new URL('../../fixtures/consort-shop/', import.meta.url));
export const RENDERER_INDEX = fileURLToPath(new URL('../../../dist/renderer/index.html', import.meta.url));
export const ARTIFACTS_DIR = fileURLToPath(new URL('../../artifacts/', import.meta.url));
