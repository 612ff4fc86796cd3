/**
 * Rendered artifacts in the Inbox, on the demo's feature (resources/demo, F-inventory) in a fresh
 * Baton project: a story reads as a sentence with its independence, an AC as Given / When / Then,
 * the test list as one table grouped by story and AC, the design as sections and tables; the raw
 * JSON is one click away; a changed AC shows both versions rendered with the change marked; and
 * opening a card counts as viewing it, whichever view it opens on.
 */
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { ARTIFACTS_DIR, REPO_ROOT } from './support/paths';
import { batonProject, expect, serving } from './support/served';

const FEATURE = 'F-inventory';
const DEMO = join(REPO_ROOT, 'resources', 'demo', '.baton', 'features', FEATURE);
const demo = (name: string) => JSON.parse(readFileSync(join(DEMO, name), 'utf8')) as Record<string, unknown>;

const S2_INDEPENDENCE = 'reservations need products to reserve';
const AC1_THEN_BEFORE = String(demo('stories/S-1/acs/AC-1.json').then);
const AC1_THEN_NOW = 'reading T1-MUG returns that name and quantity';

const test = serving(
  batonProject({
    features: [FEATURE],
    prepare: (project) => {
      // The demo's files in place of the generated ones (its feature.json instead of feature-spec.json).
      rmSync(project.featurePath(FEATURE, 'feature-spec.json'));
      cpSync(DEMO, project.featurePath(FEATURE, ''), { recursive: true });
      project.writeArtifact(FEATURE, 'stories/S-2/story.json', {
        ...demo('stories/S-2/story.json'),
        independent: false,
        depends_on: ['S-1'],
        independence: S2_INDEPENDENCE,
      });
      const testList = demo('test-list.json') as { items: unknown[] };
      // An item with neither story nor AC: it goes under "No story" / "No acceptance criterion".
      const t9 = { id: 'T9', description: 'the low-stock report answers within a second for 10,000 products', kind: 'fitness', status: 'pending' };
      project.writeArtifact(FEATURE, 'test-list.json', { items: [...testList.items, t9] });
      // Approved, then changed: the spec gate is drifted and AC-1 shows its changes since approval.
      project.baton('approve', project.dir, '--feature', FEATURE, '--gate', 'spec', '--approver', 'Ana <ana@example.com>', '--yes');
      project.writeArtifact(FEATURE, 'stories/S-1/acs/AC-1.json', { ...demo('stories/S-1/acs/AC-1.json'), then: AC1_THEN_NOW });
    },
  }),
);

const artifact = (page: Page, name: string) => page.getByTestId(`evidence-artifact-${name.replaceAll('/', '_')}`);

async function openGate(page: Page, gate: string) {
  await page.getByTestId('nav-inbox').click();
  await page.getByTestId(`inbox-item-${FEATURE}-${gate}`).click();
  await expect(page.getByTestId(`inbox-item-${FEATURE}-${gate}`)).toHaveAttribute('aria-current', 'true');
}

/** Opens a card and checks it now counts as viewed. */
async function openCard(page: Page, name: string) {
  const card = artifact(page, name);
  await expect(card.getByTestId('artifact-viewed')).toHaveAttribute('data-viewed', 'false');
  await card.getByTestId('open-evidence').click();
  await expect(card.getByTestId('artifact-viewed')).toHaveAttribute('data-viewed', 'true');
  return card;
}

test('the spec gate renders the feature, a story with its independence and an AC as Given / When / Then', async ({ servedPage: page }) => {
  await openGate(page, 'spec');

  const feature = await openCard(page, 'feature.json');
  await expect(feature.getByTestId('artifact-view-rendered')).toHaveAttribute('aria-pressed', 'true');
  await expect(feature.getByRole('heading', { level: 4 })).toContainText('Inventory that never oversells');
  await expect(feature.getByTestId('artifact-rendered')).toContainText('Postgres keeps the numbers honest');

  const story = await openCard(page, 'stories/S-2/story.json');
  const rendered = story.getByTestId('artifact-rendered');
  await expect(rendered).toContainText(
    'As a shop manager, I want orders to reserve stock only when every line can be filled, and a list of what runs low, so that we never promise',
  );
  await expect(rendered.getByTestId('story-independence')).toHaveText(`Depends on S-1 — ${S2_INDEPENDENCE}`);
  await expect(rendered.getByTestId('artifact-other-fields')).toHaveCount(0);

  const ac = await openCard(page, 'stories/S-2/acs/AC-6.json');
  const gwt = ac.getByTestId('rendered-gwt');
  await expect(gwt.locator('dt')).toHaveText(['Given', 'When', 'Then']);
  const ac6 = demo('stories/S-2/acs/AC-6.json');
  await expect(gwt.locator('dd')).toHaveText([String(ac6.given), String(ac6.when), String(ac6.then)]);
  await expect(ac.locator('pre.artifact-text')).toHaveCount(0);

  // The raw JSON is one click away, and back.
  await ac.getByTestId('artifact-view-raw').click();
  await expect(ac.getByTestId('artifact-view-raw')).toHaveAttribute('aria-pressed', 'true');
  await expect(ac.locator('pre.artifact-text')).toContainText('"given": "5 bowls and 1 plate on hand"');
  await expect(ac.getByTestId('rendered-gwt')).toHaveCount(0);
  await ac.getByTestId('artifact-view-rendered').click();
  await expect(ac.getByTestId('rendered-gwt')).toBeVisible();
  await page.screenshot({ path: join(ARTIFACTS_DIR, 'rendered-spec.png') });
});

test('an AC changed since approval shows both versions rendered, the change marked, and the text diff', async ({ servedPage: page }) => {
  await openGate(page, 'spec');
  const ac = await openCard(page, 'stories/S-1/acs/AC-1.json');
  await expect(ac.getByTestId('artifact-view-changes')).toHaveAttribute('aria-pressed', 'true');

  const before = ac.getByTestId('rendered-approved');
  const now = ac.getByTestId('rendered-now');
  await expect(before.locator('dd').nth(2)).toContainText(AC1_THEN_BEFORE);
  await expect(now.locator('dd').nth(2)).toContainText(AC1_THEN_NOW);
  await expect(now.locator('dd').nth(2).getByTestId('change-mark')).toHaveText('changed');
  // Only Then changed: Given and When carry no mark.
  await expect(now.getByTestId('change-mark')).toHaveCount(1);
  await expect(before.getByTestId('change-mark')).toHaveCount(1);
  await page.screenshot({ path: join(ARTIFACTS_DIR, 'rendered-changes.png') });

  await ac.getByTestId('artifact-view-text-changes').click();
  await expect(ac.locator('tr.diff-removed')).toContainText('an unknown SKU reads as nothing');
  await expect(ac.locator('tr.diff-added')).toContainText(AC1_THEN_NOW);
});

test('the test list is one table grouped by story and AC, with kinds and statuses; JSON is one click away', async ({ servedPage: page }) => {
  await openGate(page, 'test_list');
  const card = await openCard(page, 'test-list.json');
  const table = card.getByTestId('test-list-table');
  await expect(table.locator('thead th')).toHaveText(['ID', 'Description', 'Kind', 'Status']);

  // The items name only their AC: the spec says which story each AC belongs to.
  const s1 = table.getByTestId('test-list-story-S-1');
  await expect(s1.locator('tr.group-story')).toHaveText('Story S-1 · Keep the catalogue and the shelf counts right');
  const acHeaders = (story: string, acs: readonly string[]) => acs.map((id) => `${id} · ${String(demo(`stories/${story}/acs/${id}.json`).title)}`);
  await expect(s1.locator('tr.group-ac')).toHaveText(acHeaders('S-1', ['AC-1', 'AC-2', 'AC-3', 'AC-4']));
  const s2 = table.getByTestId('test-list-story-S-2');
  await expect(s2.locator('tr.group-ac')).toHaveText(acHeaders('S-2', ['AC-5', 'AC-6', 'AC-7', 'AC-8']));
  // Each item sits under its AC: the row after AC-6's header is T6.
  await expect(s2.locator('tr').nth(2 + 2 * 1)).toHaveAttribute('data-testid', 'test-list-row-T6');
  await expect(table.getByTestId('test-list-row-T6').locator('td')).toHaveText([
    'T6',
    'an order that cannot be filled reserves nothing (InsufficientStockError)',
    'behavior',
    'pending',
  ]);
  const none = table.getByTestId('test-list-story-none');
  await expect(none.locator('tr.group-story')).toHaveText('No story');
  await expect(none.locator('tr.group-ac')).toHaveText('No acceptance criterion');
  await expect(none.getByTestId('test-list-row-T9').locator('td').nth(2)).toHaveText('fitness');
  await page.screenshot({ path: join(ARTIFACTS_DIR, 'rendered-test-list.png') });

  await card.getByTestId('artifact-view-raw').click();
  await expect(card.locator('pre.artifact-text')).toContainText('"ac_id": "AC-1"');
  await expect(card.getByTestId('test-list-table')).toHaveCount(0);
  await expect(card.getByTestId('artifact-viewed')).toHaveAttribute('data-viewed', 'true');
});

test('the design renders its sections and tables, and names the fields it does not show', async ({ servedPage: page }) => {
  await openGate(page, 'design');
  const architecture = await openCard(page, 'architecture.json');
  await expect(architecture.locator('.rendered-section-title')).toHaveText(['Style', 'Components', 'Decisions', 'Testing']);
  await expect(architecture.getByRole('table', { name: 'Components' }).locator('tbody tr').first()).toContainText('src/db.js');

  const db = await openCard(page, 'db-design.json');
  const products = db.getByRole('table', { name: 'Columns of products' });
  await expect(products.locator('thead th')).toHaveText(['Column', 'Type', 'Constraints']);
  await expect(products.locator('tbody tr').nth(2).locator('td')).toHaveText(['qty', 'integer', 'not null, default 0, check (qty >= 0)']);
  await expect(db.getByRole('region', { name: 'Migrations' }).locator('li')).toHaveText(['001_products.sql', '002_reorder_level.sql (planned)']);
  // The demo's column note "planned" has no place in the table: the view says so.
  await expect(db.getByTestId('artifact-other-fields')).toHaveText(/Other fields: tables\[\]\.columns\[\]\.planned — see JSON/);
  await page.screenshot({ path: join(ARTIFACTS_DIR, 'rendered-design.png') });
});
