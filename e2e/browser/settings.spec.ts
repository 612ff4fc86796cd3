/** The Settings screen: each role's agent, checked and saved to project.json, in Chromium through the browser host. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { batonProject, expect, serving } from './support/served';

const test = serving(batonProject());

test.describe('agent settings', () => {
  test('shows each role’s agent, checks a command, refuses an incomplete one, and saves to project.json', async ({ servedPage: page, project }) => {
    await page.getByTestId('nav-settings').click();
    await expect(page.getByTestId('settings-view')).toBeVisible();
    await expect(page.getByTestId('agent-enforcement')).toContainText(/block|detect and revert/);
    // Who you are when you decide: no key on this machine yet, and the one command that sets it up.
    await expect(page.getByTestId('settings-signing-none')).toContainText('recorded as a typed name, not signed');
    await expect(page.getByTestId('settings-signing')).toContainText(`baton key ${project.dir} --approver`);
    await expect(page.getByTestId('agent-navigator-adapter')).toHaveValue('scripted');
    await expect(page.getByTestId('agent-driver-adapter')).toHaveValue('scripted');

    // A command agent with no command is said next to the form, and nothing is written.
    await page.getByTestId('agent-driver-adapter').selectOption('command');
    await page.getByTestId('agent-driver-save').click();
    await expect(page.getByTestId('agent-driver-problem')).toContainText('needs a command');
    const settingsFile = join(project.dir, '.baton', 'project.json');
    expect(JSON.parse(readFileSync(settingsFile, 'utf8')).agents.driver).toBe('scripted');

    // A program that is not installed: Check says so and how to fix it.
    await page.getByTestId('agent-driver-command').fill('no-such-agent-program\n--flag');
    await page.getByTestId('agent-driver-check-button').click();
    await expect(page.getByTestId('agent-driver-check')).toContainText('no-such-agent-program is not found on PATH');

    await page.getByTestId('agent-driver-command').fill(`${process.execPath}\n/opt/my-agent.mjs`);
    await page.getByTestId('agent-driver-check-button').click();
    await expect(page.getByTestId('agent-driver-check')).toContainText(`Ready: ${process.execPath}`);
    await page.getByTestId('agent-driver-timeout').fill('abc');
    await page.getByTestId('agent-driver-save').click();
    await expect(page.getByTestId('agent-driver-problem')).toContainText('Timeout must be a whole number');
    await page.getByTestId('agent-driver-timeout').fill('600');
    // Read paths must be absolute: a relative one is said, and nothing is written.
    await page.getByTestId('agent-driver-read-paths').fill('.config/my-agent');
    await page.getByTestId('agent-driver-save').click();
    await expect(page.getByTestId('agent-driver-problem')).toContainText('Read paths must be absolute: ".config/my-agent"');
    await page.getByTestId('agent-driver-read-paths').fill('/opt/my-agent-config');
    // Enter in a field saves, from the keyboard.
    await page.getByTestId('agent-driver-model').fill('my-model');
    await page.getByTestId('agent-driver-model').press('Enter');
    await expect(page.getByTestId('agent-driver-saved')).toBeVisible();
    // The view a save returns still says who you are as an approver.
    await expect(page.getByTestId('settings-signing-none')).toBeVisible();
    const saved = JSON.parse(readFileSync(settingsFile, 'utf8')) as { agents: Record<string, unknown>; testCommand: unknown };
    expect(saved.agents.driver).toEqual({
      adapter: 'command',
      command: [process.execPath, '/opt/my-agent.mjs'],
      model: 'my-model',
      readPaths: ['/opt/my-agent-config'],
      timeoutSeconds: 600,
    });
    expect(saved.agents.navigator).toBe('scripted');
    expect(saved.testCommand).toBeDefined();

    // A preset that is not installed here.
    await page.getByTestId('agent-navigator-adapter').selectOption('claude');
    await page.getByTestId('agent-navigator-check-button').click();
    await expect(page.getByTestId('agent-navigator-check')).toContainText('claude is not found on PATH');
    await expect(page.getByTestId('agent-navigator-check')).toContainText('npm install -g @anthropic-ai/claude-code');

    // What was saved is what the screen shows after a reload.
    await page.reload();
    await page.getByTestId('nav-settings').click();
    await expect(page.getByTestId('agent-driver-adapter')).toHaveValue('command');
    await expect(page.getByTestId('agent-driver-model')).toHaveValue('my-model');
    await expect(page.getByTestId('agent-driver-command')).toHaveValue(`${process.execPath}\n/opt/my-agent.mjs`);
    await expect(page.getByTestId('agent-driver-read-paths')).toHaveValue('/opt/my-agent-config');
    await expect(page.getByTestId('agent-navigator-adapter')).toHaveValue('scripted');
  });
});
