/**
 * Test and benchmark helper: a cycle project (cycle-project.fixture.ts) whose items each belong to a
 * story of their own and change a source file of their own (`src/<item>.js`), so the stories can be
 * declared independent; `parallel` goes into project.json.
 *
 * `conflicting`: each item's Driver instead (re)defines the database function `step(n)` as
 * `n + <item's number>` in a migration of its own, numbered so a later item's file sorts first, and
 * its test checks `step(2)` through DATABASE_URL. Each story passes on its own branch; merged, the
 * migrations applied in file order leave the first item's body, so every later item's test fails on
 * a fresh database (issue 30), while the feature database, migrated in merge order, keeps the last.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeCycleProject, testFile, type CycleProject } from './cycle-project.fixture';

const F = '.baton/features/F-1';

/** The Navigator's test of item `item` (number `n`): `step(2)` in the database is `2 + n`. */
const databaseTest = (item: string, n: number): string =>
  [
    "import test from 'node:test';",
    "import assert from 'node:assert/strict';",
    "import pg from 'pg';",
    `test(${JSON.stringify(`${item} steps in the database`)}, async () => {`,
    '  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });',
    '  await client.connect();',
    '  try {',
    `    assert.equal((await client.query('SELECT step(2) AS v')).rows[0].v, ${2 + n});`,
    '  } finally {',
    '    await client.end();',
    '  }',
    '});',
    '',
  ].join('\n');

const turnsFor = (items: readonly string[], conflicting: boolean) =>
  items.flatMap((item, i) =>
    conflicting
      ? [
          { role: 'navigator', item, write: { [`test/${item}.test.js`]: databaseTest(item, i + 1) } },
          {
            role: 'driver',
            item,
            // 001 is the project's own; the last item's migration is 002, the first item's sorts last.
            write: {
              [`migrations/${String(items.length + 1 - i).padStart(3, '0')}_step_${item.toLowerCase()}.sql`]: `CREATE OR REPLACE FUNCTION step(n int) RETURNS int LANGUAGE sql AS $$ SELECT n + ${i + 1} $$;\n`,
            },
          },
        ]
      : [
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
        ],
  );

/** Item `T<n>` belongs to story `S-<n>` through `AC-<n>`; `declare` is what every story.json says of independence. */
export async function makeLanesProject(
  items: readonly string[],
  declare: Record<string, unknown>,
  parallel: number,
  options: { conflicting?: boolean } = {},
): Promise<CycleProject> {
  const turns = turnsFor(items, options.conflicting ?? false);
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
