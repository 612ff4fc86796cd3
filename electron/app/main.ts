/**
 * The Electron shell: one window, the contract over IPC, everything else refused
 * (navigation, new windows, webviews, permission requests): the guards are in guards.ts.
 */
import { app, BrowserWindow, dialog, session, shell } from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { hostSession } from '../core/host-session';
import { guardContents, guardSession, rendererUrlCheck } from './guards';
import { bindContract, forwardEvents } from './ipc';
import { windowOptions } from './window-options';

// Bundled to dist/electron/main.cjs; the renderer build sits beside it in dist/renderer.
const rendererIndex = join(__dirname, '..', 'renderer', 'index.html');
const isTrustedUrl = rendererUrlCheck(pathToFileURL(rendererIndex).href);

app.enableSandbox();

// Every web contents, the window's and any other: links to the web open in the person's browser;
// nothing opens, navigates, redirects or attaches inside Baton.
app.on('web-contents-created', (_event, contents) => guardContents(contents, { isTrustedUrl, openExternal: (url) => shell.openExternal(url) }));

async function start(): Promise<void> {
  await app.whenReady();
  guardSession(session.defaultSession, isTrustedUrl);

  let window: BrowserWindow | null = null;
  const core = hostSession({
    host: 'electron',
    version: app.getVersion(),
    configDir: process.env.BATON_CONFIG_DIR ?? app.getPath('userData'),
    // Live across processes: a decision from the CLI or an edit on disk shows without Reload.
    watch: true,
    // The Inbox's count on the dock or taskbar icon (macOS, Linux launchers that read it; Windows has no count badge).
    setBadge: (count) => app.setBadgeCount(count),
    pickFolder: async () => {
      const options = { title: 'Open a project folder', properties: ['openDirectory' as const] };
      const picked = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
      return picked.canceled ? null : (picked.filePaths[0] ?? null);
    },
  });
  bindContract(core.handlers, isTrustedUrl);
  // An opened review bundle is extracted to a temporary folder; remove it on the way out.
  app.on('will-quit', () => void core.close());

  const projectArg = process.env.BATON_PROJECT ?? process.argv.slice(app.isPackaged ? 1 : 2).find((a) => !a.startsWith('-'));
  if (projectArg) await core.call('project:open', { path: projectArg });

  window = new BrowserWindow(windowOptions(join(__dirname, 'preload.cjs')));
  const stopForwarding = forwardEvents(core.workbench, window.webContents);
  window.on('closed', () => {
    stopForwarding();
    window = null;
  });
  window.once('ready-to-show', () => window?.show());
  await window.loadFile(rendererIndex);
}

app.on('window-all-closed', () => app.quit());

start().catch((cause: Error) => {
  dialog.showErrorBox('Baton could not start', cause.message);
  app.exit(1);
});
