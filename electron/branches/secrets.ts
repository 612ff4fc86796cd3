/**
 * API keys for the cloud branch providers. They come from the environment or the OS keychain,
 * never from `.baton/project.json` (committed), the ledger or a log line. Nothing here logs or
 * throws the value: a missing or unreadable secret is simply `null`, and the caller says what to do
 * next with `secretHint`.
 */
import { execFile } from 'node:child_process';

export type SecretService = 'neon' | 'lakebase';

const ENV_NAMES: Readonly<Record<SecretService, string>> = { neon: 'NEON_API_KEY', lakebase: 'DATABRICKS_TOKEN' };
const LABELS: Readonly<Record<SecretService, string>> = { neon: 'Neon API key', lakebase: 'Databricks token' };

/** A keychain lookup must never hang a command: the tools answer at once or not at all. */
const KEYCHAIN_TIMEOUT_MS = 5_000;

export interface ReadSecretOptions {
  /** Which keychain tool to ask; defaults to this machine's platform (a seam for tests). */
  readonly platform?: NodeJS.Platform;
}

/**
 * The API key for `service`: the environment variable (NEON_API_KEY, DATABRICKS_TOKEN) first, else
 * the OS keychain (Linux `secret-tool`, macOS `security`) under service `baton`, account `service`.
 * Null when neither has it or the keychain tool is missing.
 */
export async function readSecret(service: SecretService, env: NodeJS.ProcessEnv = process.env, options: ReadSecretOptions = {}): Promise<string | null> {
  const fromEnv = env[ENV_NAMES[service]]?.trim();
  if (fromEnv) return fromEnv;
  const command = keychainCommand(service, options.platform ?? process.platform);
  if (!command) return null;
  const output = await run(command.file, command.args, env);
  // `secret-tool` and `security -w` print the secret followed by a newline.
  const secret = output?.replace(/\r?\n$/, '') ?? '';
  return secret.trim() ? secret : null;
}

/** What a person does to give Baton the key: printed after "no key" and "key rejected" errors. */
export function secretHint(service: SecretService, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return `set ${ENV_NAMES[service]} in the environment (Baton reads no keychain on Windows)`;
  const store =
    platform === 'darwin' ? `security add-generic-password -s baton -a ${service} -w` : `secret-tool store --label=baton service baton account ${service}`;
  return `set ${ENV_NAMES[service]} or store it with \`${store}\``;
}

/** "No Neon API key: set NEON_API_KEY or store it with …" */
export function missingSecretMessage(service: SecretService, platform: NodeJS.Platform = process.platform): string {
  return `No ${LABELS[service]} was found in the environment or the OS keychain: ${secretHint(service, platform)}.`;
}

function keychainCommand(service: SecretService, platform: NodeJS.Platform): { file: string; args: string[] } | null {
  if (platform === 'linux' || platform === 'freebsd' || platform === 'openbsd') {
    return { file: 'secret-tool', args: ['lookup', 'service', 'baton', 'account', service] };
  }
  if (platform === 'darwin') return { file: 'security', args: ['find-generic-password', '-s', 'baton', '-a', service, '-w'] };
  // Windows' Credential Manager has no stock command that prints a secret; use the env variable.
  return null;
}

/** Stdout of the command, or null if it is missing, fails or times out. Stderr is discarded unread. */
function run(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<string | null> {
  return new Promise((resolve) => {
    // `env` also decides where the tool is looked up (its PATH), which is how tests put a fake first.
    execFile(file, args, { env, timeout: KEYCHAIN_TIMEOUT_MS, windowsHide: true, maxBuffer: 64 * 1024 }, (error, stdout) => {
      resolve(error ? null : stdout);
    });
  });
}
