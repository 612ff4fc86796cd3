import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingSecretMessage, readSecret, secretHint } from './secrets';

let bin: string;
let emptyBin: string;
let callLog: string;

/**
 * A stand-in keychain tool: answers only the exact lookup Baton documents, and records how it was
 * called. It prints a trailing newline like the real tools do.
 */
async function writeFakeTool(name: string, expectedArgs: string, secret: string): Promise<void> {
  const script = `#!/bin/sh
echo "$*" >> "${callLog}"
if [ "$*" = "${expectedArgs}" ]; then
  printf '%s\\n' '${secret}'
  exit 0
fi
echo "No matching secret" >&2
exit 1
`;
  const file = join(bin, name);
  await writeFile(file, script);
  await chmod(file, 0o755);
}

beforeAll(async () => {
  bin = await mkdtemp(join(tmpdir(), 'baton-secrets-'));
  emptyBin = await mkdtemp(join(tmpdir(), 'baton-secrets-empty-'));
  callLog = join(bin, 'calls.log');
  await writeFakeTool('secret-tool', 'lookup service baton account neon', 'neon-key-from-keychain');
  await writeFakeTool('security', 'find-generic-password -s baton -a lakebase -w', 'dapi-from-macos-keychain');
});

afterAll(async () => {
  await rm(bin, { recursive: true, force: true });
  await rm(emptyBin, { recursive: true, force: true });
});

async function calls(): Promise<string[]> {
  const text = await readFile(callLog, 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean);
}

describe('readSecret', () => {
  it('takes the key from the environment first and never asks the keychain', async () => {
    const before = (await calls()).length;
    const env = { PATH: bin, NEON_API_KEY: '  neon-key-from-env  ' };
    expect(await readSecret('neon', env, { platform: 'linux' })).toBe('neon-key-from-env');
    expect(await readSecret('lakebase', { PATH: bin, DATABRICKS_TOKEN: 'dapi-env' }, { platform: 'linux' })).toBe('dapi-env');
    expect((await calls()).length).toBe(before);
  });

  it('asks secret-tool on Linux with service baton and the provider as account', async () => {
    const secret = await readSecret('neon', { PATH: bin }, { platform: 'linux' });
    expect(secret).toBe('neon-key-from-keychain');
    expect(await calls()).toContain('lookup service baton account neon');
  });

  it('falls through a blank environment variable to the keychain', async () => {
    expect(await readSecret('neon', { PATH: bin, NEON_API_KEY: '   ' }, { platform: 'linux' })).toBe('neon-key-from-keychain');
  });

  it('returns null when the keychain has no entry for the service', async () => {
    expect(await readSecret('lakebase', { PATH: bin }, { platform: 'linux' })).toBeNull();
    expect(await calls()).toContain('lookup service baton account lakebase');
  });

  it('returns null when the keychain tool is not installed', async () => {
    expect(await readSecret('neon', { PATH: emptyBin }, { platform: 'linux' })).toBeNull();
    expect(await readSecret('neon', { PATH: emptyBin }, { platform: 'darwin' })).toBeNull();
  });

  it('asks security on macOS', async () => {
    expect(await readSecret('lakebase', { PATH: bin }, { platform: 'darwin' })).toBe('dapi-from-macos-keychain');
    expect(await calls()).toContain('find-generic-password -s baton -a lakebase -w');
  });

  it('has no keychain on Windows and relies on the environment', async () => {
    expect(await readSecret('neon', { PATH: bin }, { platform: 'win32' })).toBeNull();
  });
});

describe('secretHint', () => {
  it('names the variable and the keychain command for the platform', () => {
    expect(secretHint('neon', 'linux')).toBe('set NEON_API_KEY or store it with `secret-tool store --label=baton service baton account neon`');
    expect(secretHint('lakebase', 'darwin')).toBe('set DATABRICKS_TOKEN or store it with `security add-generic-password -s baton -a lakebase -w`');
    expect(secretHint('neon', 'win32')).toBe('set NEON_API_KEY in the environment (Baton reads no keychain on Windows)');
    expect(missingSecretMessage('neon', 'linux')).toMatch(/^No Neon API key was found .*NEON_API_KEY/);
  });
});
