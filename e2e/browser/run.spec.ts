/**
 * The enforced loop, live in the browser host, on the demo project and the embedded database:
 * press Run, watch the lifecycle reach building and T1's cycle advance in the bottom panel while
 * the agent's transcript and the runner's output stream, watch T1's card move to green, stop the
 * run, and open T1's evidence: its cycle's records in the ledger.
 */
import type { Page } from '@playwright/test';
import { demoProject, expect, serving } from './support/served';

const test = serving(demoProject());

// A demo run copies PGlite data folders and runs node:test a dozen times: on a small, busy
// machine reaching T1's GREEN takes a minute or more. Every wait is on what the page shows.
test.describe.configure({ timeout: 600_000 });
const SLOW = { timeout: 300_000 };

const current = (page: Page, machine: string) => page.getByTestId(machine).locator('[aria-current="step"]');

test('start the demo run, watch T1 go green, stop the run, open its evidence', async ({ servedPage: page }) => {
  await expect(page.getByTestId('project-name')).toHaveText('inventory');
  await expect(page.getByTestId('column-pending').getByTestId('card-T1')).toBeVisible();

  await test.step('before any run, the panel says how to start one', async () => {
    await expect(page.getByTestId('run-panel')).toHaveCount(0);
    await page.keyboard.press('Control+j');
    await expect(page.getByTestId('run-panel')).toBeVisible();
    await expect(page.getByTestId('run-panel-toggle')).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByTestId('run-empty')).toHaveText('No run yet — press Run to start the enforced loop');
    await expect(page.getByTestId('run-condition')).toHaveAttribute('data-condition', 'idle');
    await page.keyboard.press('Control+j');
    await expect(page.getByTestId('run-panel')).toHaveCount(0);
    await expect(page.getByTestId('run-stop')).toBeDisabled();
  });

  await test.step('Run, from the keyboard: the panel opens and the lifecycle reaches building', async () => {
    await page.getByTestId('run-start').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('run-panel')).toBeVisible();
    await expect(page.getByTestId('run-start')).toBeDisabled();
    await expect(page.getByTestId('run-stop')).toBeEnabled();
    await expect(page.getByTestId('run-empty')).toHaveCount(0);
    await expect(current(page, 'lifecycle-machine')).toHaveAttribute('data-state', 'building', SLOW);
    await expect(current(page, 'lifecycle-machine')).toContainText('building');
    await expect(current(page, 'lifecycle-machine')).toContainText('now');
    // The gates the demo approved are behind it, and say so in words.
    await expect(page.getByTestId('lifecycle-machine').locator('[data-state="testListGate"]')).toContainText('(passed)');
    await expect(page.getByTestId('run-phase-word')).toHaveText('building');
  });

  await test.step("T1's cycle advances past RED while the transcript and the runner output stream", async () => {
    await expect(current(page, 'cycle-machine')).toHaveAttribute('data-state', /^(red|lock|green|refactor|review)$/, SLOW);
    await expect(page.getByTestId('run-item-T1')).toBeVisible();
    await expect(page.getByTestId('cycle-machine').locator('[data-state="red"]')).toHaveClass(/machine-passed/, SLOW);
    await expect(page.getByTestId('card-T1').getByTestId('card-locked')).toBeVisible(SLOW);
    await expect(page.getByTestId('run-transcript')).toContainText('[scripted]');
    await expect(page.getByTestId('run-runner-output')).toContainText('ℹ tests');
    await expect(page.getByTestId('run-runner-output-detail')).toContainText('node --test');
    // At the default height (under half the window) both panes are wholly in view beside the machines, no scrolling.
    expect((await page.getByTestId('run-panel').boundingBox())!.height).toBeLessThan(page.viewportSize()!.height / 2);
    await expect(page.getByTestId('run-transcript')).toBeInViewport({ ratio: 1 });
    await expect(page.getByTestId('run-runner-output')).toBeInViewport({ ratio: 1 });
    // The demo builds one item at a time: "Building now" names one, and says nothing of parallel work.
    await expect(page.getByTestId('run-building')).toHaveAttribute('data-count', '1');
    await expect(page.getByTestId('run-building')).not.toContainText('parallel');
  });

  await test.step('T1 moves into the green (or already refactored) column', async () => {
    const done = page.locator('[data-testid="column-green"], [data-testid="column-refactored"]').getByTestId('card-T1');
    await expect(done).toBeVisible(SLOW);
    await expect(page.getByTestId('column-pending').getByTestId('card-T1')).toHaveCount(0);
  });

  await test.step('Stop: the run ends stopped and can be started again', async () => {
    await page.getByTestId('run-stop').click();
    await expect(page.getByTestId('run-condition')).toHaveAttribute('data-condition', 'stopped', SLOW);
    await expect(page.getByTestId('run-start')).toBeEnabled();
    await expect(page.getByTestId('run-stop')).toBeDisabled();
    await expect(page.getByTestId('run-phase')).toHaveAttribute('data-condition', 'stopped');
    // A stopped run builds nothing: no item is listed as building, no card says it is running.
    await expect(page.getByTestId('run-building')).toHaveCount(0);
    await expect(page.getByTestId('card-running')).toHaveCount(0);
  });

  await test.step("T1's evidence: its cycle's records in the ledger", async () => {
    await page.getByTestId('card-T1').click();
    const drawer = page.getByTestId('item-drawer');
    await expect(drawer).toBeVisible();
    // Its cycle, from the ledger, with its RED time.
    await drawer.getByTestId('tab-cycles').click();
    await expect(drawer.getByTestId('cycle-F-inventory/T1')).toHaveAttribute('data-source', 'ledger');
    await expect(drawer.getByTestId('cycle-F-inventory/T1').getByTestId('cycle-red').locator('time')).toHaveCount(1);
    await drawer.getByTestId('tab-evidence').click();
    const evidence = drawer.getByTestId('item-evidence');
    for (const type of ['cycle.planned', 'cycle.red', 'cycle.locked', 'cycle.green', 'item.status']) {
      await expect(evidence.locator(`[data-type="${type}"]`).first()).toBeVisible();
    }
    await expect(evidence.locator('[data-type="cycle.red"]').first()).toContainText('red');
    await page.keyboard.press('Escape');
    await expect(drawer).toHaveCount(0);
  });

  await test.step('the panel resizes from its top edge and collapses to its header, both kept for the tab', async () => {
    const panel = page.getByTestId('run-panel');
    const separator = page.getByRole('separator', { name: 'Resize the live run panel' });
    await expect(separator).toHaveAttribute('aria-orientation', 'horizontal');
    const value = async () => Number(await separator.getAttribute('aria-valuenow'));
    const [min, max] = [Number(await separator.getAttribute('aria-valuemin')), Number(await separator.getAttribute('aria-valuemax'))];
    const start = await value();
    await separator.focus();
    await page.keyboard.press('ArrowUp');
    expect(await value()).toBeGreaterThan(start);
    await page.keyboard.press('ArrowDown');
    expect(await value()).toBe(start);
    await page.keyboard.press('End');
    expect(await value()).toBe(max);
    expect(Math.round((await panel.boundingBox())!.height)).toBe(max);
    await page.keyboard.press('Home');
    expect(await value()).toBe(min);
    // Dragged up by 100 px, the panel grows by 100 px; the panes still fill it.
    const grip = (await separator.boundingBox())!;
    await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
    await page.mouse.down();
    await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2 - 100, { steps: 4 });
    await page.mouse.up();
    expect(await value()).toBe(min + 100);
    await expect(page.getByTestId('run-transcript')).toBeInViewport({ ratio: 1 });

    const collapse = page.getByTestId('run-panel-collapse');
    await expect(collapse).toHaveAttribute('aria-expanded', 'true');
    await collapse.click();
    await expect(collapse).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByTestId('run-panel-body')).toHaveCount(0);
    await expect(separator).toHaveCount(0);
    await expect(page.getByTestId('run-condition')).toBeVisible();

    // Kept for the tab: after a reload the panel opens collapsed, and expands to the height it had.
    await page.reload();
    await expect(page.getByTestId('run-start')).toBeEnabled();
    await page.keyboard.press('Control+j');
    await expect(collapse).toHaveAttribute('aria-expanded', 'false');
    await collapse.click();
    await expect(page.getByTestId('run-transcript')).toBeVisible();
    expect(await value()).toBe(min + 100);
  });
});
