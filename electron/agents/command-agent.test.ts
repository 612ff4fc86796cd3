/**
 * The `command` adapter and its presets, driven through real child processes: a plain script as
 * an agent, and a fake program per host that prints that host's documented event stream and edits
 * files (fixtures/fake-host.mjs). The sandbox cases run under bubblewrap when it works here.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRESETS, type AgentConfig } from '../../shared/agents';
import { makeTempDir } from '../project/temp-project.fixture';
import { detectBubblewrap } from '../process/sandbox';
import type { ContextPack, TurnRequest } from './agent-port';
import { absolutePathsIn, commandAgent, preflightAgent, reviewIn } from './command-agent';
import { claudeTools } from './presets';
import { dependencyRequestsIn } from '../../shared/dependencies';

const FAKE_HOST = resolve(import.meta.dirname, 'fixtures', 'fake-host.mjs');
const NODE = process.execPath;

function pack(overrides: Partial<ContextPack> = {}): ContextPack {
  return {
    version: 1,
    role: 'driver',
    step: 'green',
    feature: { id: 'F-1', name: 'Calc', description: 'Adds.' },
    story: null,
    item: { id: 'T1', description: 'adds two numbers', kind: 'unit' },
    acceptanceCriterion: { id: 'AC-1', title: 'sum', given: 'two numbers', when: 'added', then: 'the sum' },
    architecture: null,
    databaseDesign: null,
    mayWrite: ['src/**'],
    readOnly: [],
    testCommand: 'npm test',
    migrations: null,
    attempt: 1,
    round: 1,
    failure: null,
    guidance: null,
    diff: null,
    ...overrides,
  };
}

async function setup(): Promise<{ dir: string; worktree: string }> {
  const dir = await makeTempDir('baton-command-agent-');
  const worktree = join(dir, 'worktree');
  await mkdir(join(worktree, 'src'), { recursive: true });
  return { dir, worktree };
}

function request(worktree: string, overrides: Partial<TurnRequest> = {}): TurnRequest {
  return {
    role: 'driver',
    step: 'green',
    item: 'T1',
    attempt: 1,
    worktree,
    prompt: 'Make T1 pass.',
    failure: null,
    env: { DATABASE_URL: 'postgresql://agent:s3cr3t-db-pass@127.0.0.1:5432/tmp-x' },
    context: pack(),
    ...overrides,
  };
}

/** A node script as the agent: `body` runs with `fs`, `env` (process.env) and `stdin` (the prompt) in scope. */
async function script(dir: string, body: string): Promise<string> {
  const file = join(dir, 'agent.mjs');
  await writeFile(file, `import fs from 'node:fs';\nconst env = process.env;\nconst stdin = fs.readFileSync(0, 'utf8');\n${body}\n`);
  return file;
}

describe('the command adapter', () => {
  it('runs the program in the worktree with the prompt on stdin, the Baton variables and the context pack', async () => {
    const { dir, worktree } = await setup();
    const agent = await script(
      dir,
      `const ctx = JSON.parse(fs.readFileSync(env.BATON_CONTEXT, 'utf8'));
fs.writeFileSync('src/seen.json', JSON.stringify({ cwd: process.cwd(), stdin, role: env.BATON_ROLE, step: env.BATON_STEP, feature: env.BATON_FEATURE, item: env.BATON_ITEM, attempt: env.BATON_ATTEMPT, db: env.DATABASE_URL, home: env.HOME, ctxItem: ctx.item.id, ac: ctx.acceptanceCriterion.then }));
console.log('wrote src/seen.json');`,
    );
    const turn = await commandAgent({ config: { adapter: 'command', command: [NODE, agent] } }).turn(request(worktree));
    expect(turn.exitCode).toBe(0);
    const seen = JSON.parse(await readFile(join(worktree, 'src', 'seen.json'), 'utf8')) as Record<string, string>;
    expect(seen).toMatchObject({
      stdin: 'Make T1 pass.',
      role: 'driver',
      step: 'green',
      feature: 'F-1',
      item: 'T1',
      attempt: '1',
      ctxItem: 'T1',
      ac: 'the sum',
    });
    expect(await import('node:fs/promises').then((fs) => fs.realpath(seen.cwd!))).toBe(await import('node:fs/promises').then((fs) => fs.realpath(worktree)));
    expect(seen.db).toContain('tmp-x');
    expect(seen.home).not.toBe(process.env.HOME);
    expect(turn.transcript).toContain('wrote src/seen.json');
    expect(turn.usage).toMatchObject({ host: 'command', inputTokens: null });
  });

  it('counts a non-zero exit as a failed turn and keeps what it said', async () => {
    const { dir, worktree } = await setup();
    const agent = await script(dir, `console.error('cannot do it'); process.exit(3);`);
    const turn = await commandAgent({ config: { adapter: 'command', command: [NODE, agent] } }).turn(request(worktree));
    expect(turn.exitCode).toBe(3);
    expect(turn.transcript).toContain('cannot do it');
  });

  it('stops a turn that runs past its timeout, and one that falls silent, with every process it started', async () => {
    const { dir, worktree } = await setup();
    const marker = `${300 + Math.floor(Math.random() * 1000)}.25`;
    const agent = await script(
      dir,
      `import('node:child_process').then((cp) => { cp.spawn('sleep', ['${marker}'], { detached: true, stdio: 'ignore' }).unref(); console.log('started'); setInterval(() => console.log('busy'), 200); });`,
    );
    const slow = await commandAgent({ config: { adapter: 'command', command: [NODE, agent], timeoutSeconds: 1 } }).turn(request(worktree));
    expect(slow.exitCode).toBe(124);
    expect(slow.transcript).toMatch(/ran longer than 1 s/);
    expect(running(`sleep ${marker}`)).toBe(false);

    const quiet = await script(dir, `console.log('thinking'); setTimeout(() => console.log('late'), 20000);`);
    const silent = await commandAgent({ config: { adapter: 'command', command: [NODE, quiet], silenceSeconds: 1 } }).turn(request(worktree));
    expect(silent.exitCode).toBe(124);
    expect(silent.transcript).toMatch(/printed nothing for 1 s/);
    expect(silent.transcript).not.toContain('late');
  }, 30_000);

  it('kills what the agent left running when it exits', async () => {
    const { dir, worktree } = await setup();
    const marker = `${1300 + Math.floor(Math.random() * 1000)}.75`;
    const agent = await script(
      dir,
      `import('node:child_process').then((cp) => { cp.spawn('sleep', ['${marker}'], { detached: true, stdio: 'ignore' }).unref(); });`,
    );
    const turn = await commandAgent({ config: { adapter: 'command', command: [NODE, agent] } }).turn(request(worktree));
    expect(turn.exitCode).toBe(0);
    expect(running(`sleep ${marker}`)).toBe(false);
  });

  it('scrubs API keys it was given and the database password from the transcript and the live output', async () => {
    const { dir, worktree } = await setup();
    const agent = await script(dir, `console.log('key=' + env.MY_API_KEY + ' url=' + env.DATABASE_URL);`);
    const live: string[] = [];
    const from = { ...process.env, MY_API_KEY: 'sk-live-0123456789abcdef' };
    const turn = await commandAgent({ config: { adapter: 'command', command: [NODE, agent] }, passEnv: ['MY_API_KEY'], from }).turn(
      request(worktree, { onOutput: (c) => live.push(c) }),
    );
    for (const text of [turn.transcript, live.join('')]) {
      expect(text).toContain('key=***');
      expect(text).not.toContain('sk-live-0123456789abcdef');
      expect(text).not.toContain('s3cr3t-db-pass');
    }
  });

  it('reads a reviewer’s verdict from its BATON-REVIEW line', async () => {
    const { dir, worktree } = await setup();
    const agent = await script(dir, `console.log('Looks fine overall.'); console.log('BATON-REVIEW: smell the total ignores discounts');`);
    const turn = await commandAgent({ config: { adapter: 'command', command: [NODE, agent] } }).turn(
      request(worktree, { role: 'navigator', step: 'review', context: pack({ role: 'navigator', step: 'review', mayWrite: [], diff: '+x' }) }),
    );
    expect(turn.review).toEqual({ decision: 'smell', note: 'the total ignores discounts' });
    expect(reviewIn('nothing here')).toBeNull();
    expect(reviewIn('BATON-REVIEW: refactor\nBATON-REVIEW: accept')).toEqual({ decision: 'accept', note: null });
  });

  it('stops at once when the run is cancelled', async () => {
    const { dir, worktree } = await setup();
    const agent = await script(dir, `setInterval(() => console.log('working'), 100);`);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 500);
    await expect(
      commandAgent({ config: { adapter: 'command', command: [NODE, agent] } }).turn(request(worktree, { signal: controller.signal })),
    ).rejects.toThrow(/cancelled/);
  });

  it('finds absolute paths written inside arguments', () => {
    expect(absolutePathsIn('/opt/agent.mjs')).toEqual(['/opt/agent.mjs']);
    expect(absolutePathsIn('node /tmp/a b.mjs --x=/srv/conf')).toEqual(['/tmp/a', '/srv/conf']);
    expect(absolutePathsIn('--flag')).toEqual([]);
  });
});

describe('presets, each with a fake host speaking its documented stream', () => {
  const expected: Record<
    string,
    { line: RegExp; usage: { inputTokens: number | null; outputTokens: number | null; costUsd: number | null }; model: string | null }
  > = {
    claude: { line: /\[claude\] tool Write src\/sum\.js/, usage: { inputTokens: 1500, outputTokens: 450, costUsd: 0.0123 }, model: 'claude-fake-1' },
    codex: { line: /\[codex\] add src\/sum\.js/, usage: { inputTokens: 2000, outputTokens: 300, costUsd: null }, model: null },
    gemini: { line: /\[gemini\] tool write_file src\/sum\.js/, usage: { inputTokens: 700, outputTokens: 200, costUsd: null }, model: 'gemini-fake-pro' },
    aider: { line: /Applied edit to src\/sum\.js/, usage: { inputTokens: 2500, outputTokens: 310, costUsd: 0.01 }, model: 'fake-model' },
  };
  for (const preset of PRESETS) {
    it(`${preset}: edits files, shows its tool calls and reports usage`, async () => {
      const { dir, worktree } = await setup();
      await writeFile(join(worktree, 'src', 'old.js'), '// existing\n');
      const scenario = join(dir, 'scenario.json');
      const say = 'Adding sum.\nBATON-DEPENDENCY: left-pad@^1.3.0';
      await writeFile(
        scenario,
        JSON.stringify({ turns: [{ role: 'driver', item: 'T1', say, write: { 'src/sum.js': 'export const sum = (a, b) => a + b;\n' } }] }),
      );
      const config: AgentConfig = { adapter: preset, command: [NODE, FAKE_HOST, preset, scenario] };
      const live: string[] = [];
      const turn = await commandAgent({ config }).turn(request(worktree, { onOutput: (c) => live.push(c) }));
      expect(turn.exitCode, turn.transcript).toBe(0);
      expect(await readFile(join(worktree, 'src', 'sum.js'), 'utf8')).toContain('a + b');
      expect(turn.transcript).toMatch(expected[preset]!.line);
      expect(live.join('')).toMatch(expected[preset]!.line);
      expect(turn.usage).toEqual({ host: preset, model: expected[preset]!.model, ...expected[preset]!.usage });
      // A dependency request in the host's own message reaches the orchestrator (shared/dependencies.ts).
      expect(dependencyRequestsIn(turn.said ?? '').requests).toEqual([{ name: 'left-pad', spec: '^1.3.0', dev: false }]);
      expect(live.join('')).toMatch(new RegExp(`\\[${preset}\\] usage: [\\d,]+ tokens in, [\\d,]+ out`));
    });
  }

  for (const preset of PRESETS) {
    it(`${preset}: a reviewer's verdict in the host's own messages is read (smell with its note)`, async () => {
      const { dir, worktree } = await setup();
      const scenario = join(dir, 'scenario.json');
      await writeFile(
        scenario,
        JSON.stringify({ turns: [{ role: 'navigator', step: 'review', item: 'T1', decision: 'smell', note: 'the total ignores discounts' }] }),
      );
      const turn = await commandAgent({ config: { adapter: preset, command: [NODE, FAKE_HOST, preset, scenario] } }).turn(
        request(worktree, { role: 'navigator', step: 'review', context: pack({ role: 'navigator', step: 'review', mayWrite: [], diff: '+x' }) }),
      );
      expect(turn.exitCode, turn.transcript).toBe(0);
      expect(turn.review).toEqual({ decision: 'smell', note: 'the total ignores discounts' });
    });
  }

  it("a verdict line in Baton's own lines about the turn is not the agent's verdict", async () => {
    const { dir, worktree } = await setup();
    // The program's name carries the words; only what the agent says counts.
    const agent = join(dir, 'BATON-REVIEW: smell.mjs');
    await writeFile(agent, "console.log('all good');\n");
    const turn = await commandAgent({ config: { adapter: 'command', command: [NODE, agent] } }).turn(
      request(worktree, { role: 'navigator', step: 'review', context: pack({ role: 'navigator', step: 'review', mayWrite: [], diff: '+x' }) }),
    );
    expect(turn.review).toEqual({ decision: 'accept', note: null });
  });

  it('claude: a host that reports an error fails the turn even when it exits 0', async () => {
    const { dir, worktree } = await setup();
    const agent = await script(dir, `console.log(JSON.stringify({ type: 'result', subtype: 'error_max_turns', is_error: true, usage: {} }));`);
    const turn = await commandAgent({ config: { adapter: 'claude', command: [NODE, agent] } }).turn(request(worktree));
    expect(turn.exitCode).toBe(1);
    expect(turn.transcript).toMatch(/error_max_turns/);
  });

  it('claude: tools follow the role’s write scope; a reviewer may edit nothing', () => {
    const driver = claudeTools({ writable: ['src/**'], readOnlyFiles: ['test/a.test.js'] });
    expect(driver.allowed).toContain('Edit(src/**)');
    expect(driver.disallowed).toContain('Edit(test/a.test.js)');
    const reviewer = claudeTools({ writable: [], readOnlyFiles: [] });
    expect(reviewer.allowed).not.toContain('Bash');
    expect(reviewer.disallowed).toEqual(expect.arrayContaining(['Edit', 'Write', 'Bash']));
  });
});

describe('preflight', () => {
  it('says when the program is missing, and how to install it', async () => {
    const check = await preflightAgent('driver', 'claude', { from: { PATH: '/nonexistent' }, home: '/nonexistent' });
    expect(check.ok).toBe(false);
    expect(check.problem).toMatch(/claude is not found on PATH.*npm install -g @anthropic-ai\/claude-code/);
  });

  it('says when a preset is not logged in, and accepts a key in the environment or its login file', async () => {
    const home = await makeTempDir('baton-home-');
    const config: AgentConfig = { adapter: 'codex', command: [NODE, FAKE_HOST, 'codex'] };
    const out = await preflightAgent('navigator', config, { from: { PATH: process.env.PATH }, home });
    expect(out.ok).toBe(false);
    expect(out.problem).toMatch(/not logged in.*OPENAI_API_KEY.*codex login/);
    expect((await preflightAgent('navigator', config, { from: { PATH: process.env.PATH, OPENAI_API_KEY: 'sk-x' }, home })).ok).toBe(true);
    await mkdir(join(home, '.codex'));
    await writeFile(join(home, '.codex', 'auth.json'), '{}');
    expect((await preflightAgent('navigator', config, { from: { PATH: process.env.PATH }, home })).ok).toBe(true);
  });

  it('needs a command for the command adapter', async () => {
    const check = await preflightAgent('driver', 'command');
    expect(check.problem).toMatch(/needs "command"/);
  });
});

describe('in the sandbox', () => {
  it('lets the agent write only its worktree and private HOME; locked files are read-only', async (ctx) => {
    const support = await detectBubblewrap();
    if (!support.ok) {
      console.log(`skipped: no working bubblewrap on this machine (${support.reason})`);
      ctx.skip();
    }
    const { dir, worktree } = await setup();
    await mkdir(join(worktree, 'test'));
    await writeFile(join(worktree, 'test', 'locked.test.js'), '// locked\n');
    const outside = join(dir, 'outside.txt');
    const agent = await script(
      dir,
      `const tryWrite = (p) => { try { fs.writeFileSync(p, 'x'); return 'wrote'; } catch (e) { return e.code; } };
console.log(JSON.stringify({ outside: tryWrite(${JSON.stringify(outside)}), locked: tryWrite('test/locked.test.js'), mine: tryWrite('src/ok.js'), home: tryWrite(env.HOME + '/cache') }));`,
    );
    const turn = await commandAgent({ config: { adapter: 'command', command: [NODE, agent] }, sandbox: 'required' }).turn(
      request(worktree, { context: pack({ readOnly: ['test/locked.test.js'] }) }),
    );
    const line = turn.transcript.split('\n').find((l) => l.startsWith('{'))!;
    // A write under /tmp lands in the sandbox's private /tmp, thrown away: never in the real folder.
    expect(JSON.parse(line)).toMatchObject({ locked: 'EROFS', mine: 'wrote', home: 'wrote' });
    expect(existsSync(outside)).toBe(false);
    expect(existsSync(join(worktree, 'src', 'ok.js'))).toBe(true);
    expect(turn.transcript).toContain('[sandbox] bubblewrap');
    expect(await readFile(join(worktree, 'test', 'locked.test.js'), 'utf8')).toBe('// locked\n');
  });
});

function running(pattern: string): boolean {
  try {
    execFileSync('pgrep', ['-f', pattern]);
    return true;
  } catch {
    return false;
  }
}
