/** Registers a `baton serve` of the consort-shop fixture around the spec file's tests. */
import { test } from '@playwright/test';
import { FIXTURE_DIR } from './paths';
import { serve, type Served } from './serve';

export function servedFixture(dir: string | null = FIXTURE_DIR): () => Served {
  let served: Served | undefined;
  test.beforeAll(async () => {
    served = await serve(dir);
  });
  test.afterAll(async () => {
    await served?.stop();
  });
  return () => {
    if (!served) throw new Error('baton serve is not running: beforeAll failed, see its error above.');
    return served;
  };
}
