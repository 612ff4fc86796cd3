/** The Problems view lists the fixture's one malformed file; the rail's badge counts it. */
import { expect, fixtureFolder, serving } from './support/served';

const test = serving(fixtureFolder());

test('lists the malformed file with what is wrong', async ({ servedPage: page }) => {
  await expect(page.getByTestId('problems-count')).toHaveText('1');
  await page.getByTestId('nav-problems').click();
  await expect(page.getByTestId('nav-problems')).toHaveAttribute('aria-current', 'page');

  const problems = page.getByTestId('problem');
  await expect(problems).toHaveCount(1);
  await expect(problems.first()).toContainText('.consort/features/F-inventory/architecture.json');
  await expect(problems.first()).toContainText('is not valid JSON:');
  await expect(problems.first()).toContainText('line 4, column 3');
});
