/** The Gates view: each gate's status, approver, time and artifact hashes, per feature. */
import { expect, fixtureFolder, serving } from './support/served';

const test = serving(fixtureFolder());

interface ExpectedGate {
  readonly feature: string;
  readonly name: string;
  readonly status: string;
  readonly approver: string | null;
  readonly at: string | null;
  readonly artifacts: readonly [string, string][];
  readonly story?: string;
}

// From e2e/fixtures/consort-shop/EXPECTED.md.
const GATES: readonly ExpectedGate[] = [
  {
    feature: 'F-checkout',
    name: 'spec',
    status: 'approved',
    approver: 'po@shop.example',
    at: '2025-03-10T10:00:00Z',
    artifacts: [['feature-spec.json', 'c33d3f2341ce8e9031f8fc825bcea6ccd6d9c0e32755b5c7b70182b6ff54309d']],
  },
  {
    feature: 'F-checkout',
    name: 'plan',
    status: 'approved',
    approver: 'po@shop.example',
    at: '2025-03-10T15:30:00Z',
    artifacts: [
      ['architecture.json', 'b109da1d34bf5211f0c1e1c4f0aa08c1247c3c7629b44e8ed2ad2e997beae5ad'],
      ['db-design.json', '9dac73ef21529d0910a6d4b2388683c7364541f62cc614ea2ad253db6b09b0c7'],
    ],
  },
  {
    feature: 'F-checkout',
    name: 'test_list',
    status: 'approved',
    approver: 'lead@shop.example',
    at: '2025-03-11T09:15:00Z',
    artifacts: [['test-list.json', '370f414f1d7b7a29c6c447cdf88fd84197a2c54a76859c1c271f85af4df1d4e4']],
  },
  { feature: 'F-checkout', name: 'deploy', status: 'open', approver: null, at: null, artifacts: [] },
  { feature: 'F-checkout', name: 'promote', status: 'withdrawn', approver: null, at: null, artifacts: [] },
  {
    feature: 'F-checkout',
    name: 'acceptance',
    status: 'open',
    approver: null,
    at: null,
    artifacts: [],
    story: 'sprint-1',
  },
  {
    feature: 'F-inventory',
    name: 'spec',
    status: 'approved',
    approver: 'po@shop.example',
    at: '2025-03-11T11:00:00Z',
    artifacts: [['feature-spec.json', '6caefbdf8bb629f4ffc05fbb5e40aa25e266cf87ff85f158501213aa01595305']],
  },
  {
    feature: 'F-inventory',
    name: 'plan',
    status: 'superseded',
    approver: 'po@shop.example',
    at: '2025-03-11T14:00:00Z',
    artifacts: [['architecture.json', 'c22f9d14caf31b8ff908beea2998d9a09ee4e35685c323b0468f807c2ab8bdac']],
  },
  { feature: 'F-inventory', name: 'test_list', status: 'open', approver: null, at: null, artifacts: [] },
];

test('each gate shows its status, approver, time and artifacts', async ({ servedPage: page }) => {
  await page.getByTestId('nav-gates').click();
  await expect(page.getByTestId('nav-gates')).toHaveAttribute('aria-current', 'page');
  await expect(page.locator('[data-testid^="gate-F-"]')).toHaveCount(GATES.length);

  for (const gate of GATES) {
    const row = page.getByTestId(`gate-${gate.feature}-${gate.name}`);
    await expect(row).toHaveCount(1);
    const cells = row.locator('th, td');
    await expect(cells.nth(1)).toHaveText(gate.status);
    await expect(cells.nth(2)).toHaveText(gate.approver ?? '—');
    if (gate.at) {
      await expect(cells.nth(3)).toContainText(gate.at);
      // Human-friendly too: a <time> carrying the raw value, its text a readable date in 2025,
      // followed by how long ago that was.
      await expect(cells.nth(3).locator('time')).toHaveAttribute('datetime', gate.at);
      await expect(cells.nth(3).locator('time')).toHaveText(/2025/);
      await expect(cells.nth(3).locator('time')).not.toHaveText(gate.at);
      await expect(cells.nth(3)).toContainText(/ago|yesterday|today|in /);
    } else {
      await expect(cells.nth(3)).toHaveText('—');
    }
    if (gate.story) {
      await expect(row).toHaveAttribute('data-story', gate.story);
      await expect(cells.nth(0)).toContainText(gate.story);
    }
    if (gate.artifacts.length === 0) await expect(cells.nth(4)).toHaveText('none');
    for (const [name, sha] of gate.artifacts) {
      await expect(cells.nth(4)).toContainText(name);
      const hash = cells.nth(4).locator(`[title="sha256 ${sha}"]`);
      await expect(hash).toHaveText(sha.slice(0, 12));
    }
  }
});
