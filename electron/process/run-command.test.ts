import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CommandError, quoteArg, runCommand, secretScrubber } from './run-command';

const posix = process.platform !== 'win32';
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baton-run-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Alive and not a zombie (a container's PID 1 may never reap an orphan). */
function alive(pid: number): boolean {
  try {
    if (process.platform === 'linux') return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function eventuallyGone(pid: number): Promise<boolean> {
  for (let i = 0; i < 40; i++) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

async function pidFrom(file: string): Promise<number> {
  return Number((await readFile(file, 'utf8')).trim());
}

describe('runCommand', () => {
  it('returns the exit code and both outputs', async () => {
    const result = await runCommand(`node -e "process.stdout.write('out'); process.stderr.write('err'); process.exit(3)"`, { cwd: dir });
    expect(result).toMatchObject({ code: 3, signal: null, stdout: 'out', stderr: 'err' });
    expect(result.ms).toBeGreaterThanOrEqual(0);
  });

  it('runs in the given folder with the given environment', async () => {
    const result = await runCommand(posix ? 'pwd; echo "$BATON_X"' : 'cd & echo %BATON_X%', { cwd: dir, env: { ...process.env, BATON_X: 'hello' } });
    expect(result.stdout).toContain('hello');
    expect(result.stdout).toContain(dir.split(/[\\/]/).pop());
  });

  it.runIf(posix)('background work runs at the lowest CPU priority, with every process it starts; other commands at their own', async () => {
    // `nice` with no argument prints the niceness it runs at; the inner shell is a grandchild.
    const niced = await runCommand(`nice; sh -c nice`, { cwd: dir, background: true });
    expect(niced.stdout.trim().split(/\s+/)).toEqual(['19', '19']);
    const plain = await runCommand(`nice`, { cwd: dir });
    expect(plain.stdout.trim()).toBe(String(getPriority()));
  });

  it.runIf(posix)('kills the whole process tree when the timeout passes', async () => {
    const pidFile = join(dir, 'child.pid');
    const run = runCommand(`sleep 30 & echo $! > ${quoteArg(pidFile)}; wait`, { cwd: dir, timeoutMs: 500 });
    await expect(run).rejects.toThrow(/ran longer than 0\.5 s .* stopped with all its child processes/);
    const child = await pidFrom(pidFile);
    expect(await eventuallyGone(child)).toBe(true);
  });

  it.runIf(posix)('stops the tree and throws cancelled when the signal aborts', async () => {
    const pidFile = join(dir, 'child.pid');
    const controller = new AbortController();
    const run = runCommand(`sleep 30 & echo $! > ${quoteArg(pidFile)}; wait`, { cwd: dir, signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    const error = await run.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CommandError);
    expect((error as CommandError).code).toBe('cancelled');
    expect(await eventuallyGone(await pidFrom(pidFile))).toBe(true);
  });

  it.runIf(posix)('does not wait forever for a background child that keeps the output open, and kills it', async () => {
    const pidFile = join(dir, 'child.pid');
    const result = await runCommand(`sleep 30 & echo $! > ${quoteArg(pidFile)}; echo started`, { cwd: dir, timeoutMs: 20_000 });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('started');
    expect(await eventuallyGone(await pidFrom(pidFile))).toBe(true);
  });

  it('never hands back the password of DATABASE_URL, in output or in errors', async () => {
    const env = { ...process.env, DATABASE_URL: 'postgresql://app:p%40ss-w0rd-9@127.0.0.1:5/db' };
    const echo = posix ? 'echo "$DATABASE_URL"; echo "p@ss-w0rd-9" >&2' : 'echo %DATABASE_URL% & echo p@ss-w0rd-9 1>&2';
    const result = await runCommand(echo, { cwd: dir, env });
    expect(result.stdout).toContain('postgresql://app:***@127.0.0.1:5/db');
    expect(result.stdout + result.stderr).not.toMatch(/w0rd/);
    const failed = await runCommand(`node -e "setTimeout(() => {}, 5000)" postgresql://app:p%40ss-w0rd-9@h/db`, { cwd: dir, env, timeoutMs: 300 }).catch(
      (e: Error) => e,
    );
    expect(String(failed)).toMatch(/ran longer than/);
    expect(String(failed)).not.toMatch(/w0rd/);
  });

  it('streams output a whole line at a time while it runs, scrubbed, with a partial last line at the end', async () => {
    const env = { ...process.env, DATABASE_URL: 'postgresql://app:s3cret-pw@127.0.0.1:5/db' };
    const chunks: Array<{ text: string; at: number }> = [];
    const script =
      "process.stdout.write('one\\ntw'); setTimeout(() => { process.stdout.write('o s3cret-pw\\n'); setTimeout(() => process.stdout.write('tail'), 300); }, 300)";
    const started = Date.now();
    const result = await runCommand(`node -e "${script}"`, { cwd: dir, env, onOutput: (text) => chunks.push({ text, at: Date.now() - started }) });
    expect(chunks.map((c) => c.text)).toEqual(['one\n', 'two ***\n', 'tail\n']);
    // The first line arrived before the command ended, not all at once afterwards.
    expect(chunks[0]!.at).toBeLessThan(chunks[2]!.at);
    expect(result.stdout).toBe('one\ntwo ***\ntail');
  });

  it('keeps the end of a long output', async () => {
    const result = await runCommand(`node -e "process.stdout.write('a'.repeat(50000) + 'THE-END')"`, { cwd: dir, maxOutputChars: 1000 });
    expect(result.stdout.endsWith('THE-END')).toBe(true);
    expect(result.stdout).toMatch(/^\[… 49007 characters omitted\]/);
    expect(result.stdout.length).toBeLessThan(1100);
  });

  it('says clearly when the folder does not exist', async () => {
    await expect(runCommand('echo hi', { cwd: join(dir, 'missing') })).rejects.toThrow(/Could not start `echo hi` in .*missing/);
  });
});

describe('secretScrubber', () => {
  it('hides the password in any URL even when DATABASE_URL is not set', () => {
    expect(secretScrubber({})('see postgres://u:hunter2@h:5432/d now')).toBe('see postgres://u:***@h:5432/d now');
  });
});
