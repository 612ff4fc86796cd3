/**
 * The desktop shell, end to end: the window opens, the contract answers through the preload, and a
 * channel outside the contract is refused. Needs Electron's binary; where the install skipped its
 * download (ELECTRON_SKIP_BINARY_DOWNLOAD=1) the test is skipped with that reason printed.
 */
import { _electron as electron, expect, test, type ElectronApplication } from '@playwright/test';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BatonApi } from '../../shared/contract';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');

interface BatonWindow {
  baton: { invoke(channel: string, request: unknown): ReturnType<BatonApi['invoke']> };
}

function electronBinary(): { path: string | null; reason: string } {
  try {
    const path = createRequire(import.meta.url)('electron') as unknown as string;
    if (existsSync(path)) return { path, reason: '' };
    return { path: null, reason: `no Electron binary on this machine (${path} is missing; installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1?)` };
  } catch (cause) {
    return { path: null, reason: `no Electron binary on this machine (${(cause as Error).message.split('\n')[0]})` };
  }
}

const binary = electronBinary();
if (!binary.path) console.log(`[electron smoke] skipped: ${binary.reason}`);

test.describe('Electron shell', () => {
  test.skip(!binary.path, binary.reason);

  let app: ElectronApplication;
  let configDir: string;

  test.beforeAll(async () => {
    configDir = mkdtempSync(join(tmpdir(), 'baton-electron-'));
    app = await electron.launch({
      executablePath: binary.path!,
      args: [root, join(root, 'e2e', 'fixtures', 'consort-shop')],
      env: { ...process.env, BATON_CONFIG_DIR: configDir },
    });
  });

  test.afterAll(async () => {
    await app?.close();
    rmSync(configDir, { recursive: true, force: true });
  });

  test('opens a sandboxed window whose contract answers and refuses unknown channels', async () => {
    const page = await app.firstWindow();
    await expect(page).toHaveTitle('Baton');
    const info = await page.evaluate(() => (window as unknown as BatonWindow).baton.invoke('app:info', {}));
    expect(info).toMatchObject({ ok: true, value: { host: 'electron' } });
    const forbidden = await page.evaluate(() => (window as unknown as BatonWindow).baton.invoke('fs:readFile', { path: '/etc/passwd' }));
    expect(forbidden).toMatchObject({ ok: false, error: { code: 'forbidden-channel' } });
    const hasNode = await page.evaluate(() => 'require' in globalThis || 'process' in globalThis);
    expect(hasNode).toBe(false);
  });
});
