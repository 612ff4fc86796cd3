/**
 * Test and benchmark helper: a cycle project (cycle-project.fixture.ts) whose items each belong to a
 * story of their own and change a source file of their own (`src/<item>.js`), so the stories can be
 * declared independent; `parallel` goes into project.json.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeCycleProject, testFile, type CycleProject } from './cycle-project.fixture';

const F = '.baton/features/F-1';

/** Item `T<n>` belongs to story `S-<n>` through `AC-<n>`; `declare` is what every story.json says of independence. */
export async function makeLanesProject(items: readonly string[], declare: Record<string, unknown>, parallel: number): Promise<CycleProject> {
  const turns = items.flatMap((item) => [
    {
      role: 'navigator',
      item,
      write: {
        [`test/${item}.test.js`]: testFile([[`${item} works`, `assert.equal((await import('../src/${item}.js')).f(2), 3);`]]).replace(
          '() => {',
          'async () => {',
        ),
      },
    },
    { role: 'driver', item, write: { [`src/${item}.js`]: 'export const f = (n) => n + 1;\n' } },
  ]);
  const extra: Record<string, unknown> = {
    [`${F}/test-list.json`]: { items: items.map((id, i) => ({ id, description: `item ${id}`, ac_id: `AC-${i + 1}`, status: 'pending' })) },
  };
  items.forEach((item, i) => {
    const n = i + 1;
    extra[`${F}/stories/S-${n}/story.json`] = { id: `S-${n}`, title: `story ${n}`, as_a: 'user', i_want: `step ${n}`, so_that: 'it works', ...declare };
    extra[`${F}/stories/S-${n}/acs/AC-${n}.json`] = { id: `AC-${n}`, given: `a number (${n})`, when: `I step it (${n})`, then: `I get the next (${n})` };
  });
  const project = await makeCycleProject([...items], { turns } as never, { extra: extra as never });
  const settingsFile = join(project.root, '.baton', 'project.json');
  await writeFile(settingsFile, JSON.stringify({ ...JSON.parse(await readFile(settingsFile, 'utf8')), parallel }));
  return project;
}
