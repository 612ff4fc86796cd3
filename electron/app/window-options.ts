/**
 * The one place window options are made. Pinned by window-options.test.ts: sandbox and context
 * isolation on, node integration off, web security on. Do not relax these.
 * Kept free of `electron` imports (types only) so the test runs without an Electron binary.
 */
import type { BrowserWindowConstructorOptions } from 'electron';

export function windowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1360,
    height: 860,
    minWidth: 900,
    minHeight: 560,
    title: 'Baton',
    show: false,
    backgroundColor: '#1e1f22',
    webPreferences: {
      preload: preloadPath,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      spellcheck: false,
    },
  };
}
