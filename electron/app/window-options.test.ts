import { describe, expect, it } from 'vitest';
import { windowOptions } from './window-options';

describe('windowOptions', () => {
  const prefs = windowOptions('/app/preload.cjs').webPreferences ?? {};

  it('pins the security settings: sandbox, isolation, no node, web security on', () => {
    expect(prefs).toMatchObject({
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });

  it('loads the given preload and nothing else', () => {
    expect(prefs.preload).toBe('/app/preload.cjs');
    expect(Object.keys(prefs)).not.toContain('additionalArguments');
  });
});
