/**
 * Baton says when it needs you: a gate that becomes decidable because of a decision made from the
 * CLI raises a browser notification (once turned on, with the browser's permission) and the
 * window's title count; clicking the notification opens that gate in the Inbox.
 */
import { GIT_IDENTITY } from './support/baton-project';
import { batonProject, expect, serving } from './support/served';

const test = serving(batonProject({ features: ['F-1'] }));

type Shown = { title: string; body: string; tag: string };

test('a gate made decidable from the CLI raises a notification and the title count; clicking it opens the gate', async ({
  servedPage: page,
  project,
  served,
}) => {
  await page.context().grantPermissions(['notifications'], { origin: served.origin });
  // Every notification the page makes is recorded (the real one is still made), and the window is in the background.
  await page.addInitScript(() => {
    const Real = window.Notification;
    const shown: { title: string; body: string; tag: string; made: Notification }[] = [];
    (window as unknown as { shown: typeof shown }).shown = shown;
    window.Notification = class extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        shown.push({ title, body: options?.body ?? '', tag: options?.tag ?? '', made: this });
      }
    } as typeof Notification;
    document.hasFocus = () => false;
  });
  await page.reload();
  await page.getByTestId('nav-inbox').click();
  const toggle = page.getByTestId('notify-toggle');
  await expect(toggle).toHaveText('Notify me when something needs me');
  await toggle.click();
  await expect(toggle).toHaveText('Notifications on');
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  const waiting = Number(await page.getByTestId('inbox-count').textContent());
  await expect(page).toHaveTitle(new RegExp(`^\\(${waiting}\\) `));
  // What was waiting when the page opened is in the Inbox, not a burst of notifications.
  expect(await page.evaluate(() => (window as unknown as { shown: Shown[] }).shown.length)).toBe(0);

  project.baton('approve', project.dir, '--feature', 'F-1', '--gate', 'spec', '--approver', GIT_IDENTITY, '--yes');

  await expect
    .poll(() => page.evaluate(() => (window as unknown as { shown: Shown[] }).shown.map(({ title, body }) => ({ title, body }))))
    .toEqual([{ title: 'The design gate is ready to decide', body: expect.stringMatching(/: open it in the Inbox\.$/) }]);
  // The spec left, the design joined: the same count, and the title still says it.
  await expect(page).toHaveTitle(new RegExp(`^\\(${waiting}\\) `));
  await page.getByTestId('nav-board').click();
  await page.evaluate(() => (window as unknown as { shown: { made: Notification }[] }).shown[0]!.made.onclick?.(new Event('click')));
  await expect(page.getByTestId('nav-inbox')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('inbox-item-F-1-design')).toHaveAttribute('aria-current', 'true');

  // Turned off, nothing more is shown.
  await page.getByTestId('notify-toggle').click();
  await expect(page.getByTestId('notify-toggle')).toHaveText('Notify me when something needs me');
});
