/**
 * The `scripted` adapter: a deterministic agent that plays a scenario file. It is how the demo
 * and the tests exercise the whole loop without a model: writes and deletes happen in the turn's
 * worktree, then `run` commands execute there (through the shell, with the turn's environment),
 * inside the sandbox where the `sandbox` setting allows: only the worktree is writable.
 */
import { lstat, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { runCommand } from '../process/run-command';
import { childEnv } from '../platform/child-env';
import type { AgentAdapter, TurnRequest, TurnResult } from './agent-port';
import { openSandbox, type SandboxSetting } from '../process/sandbox';
import { matchTurn, type Scenario } from './scenario';

const RUN_TIMEOUT_MS = 120_000;

export interface ScriptedAgentOptions {
  /** The project's `sandbox` setting; absent: `auto`. */
  readonly sandbox?: SandboxSetting;
  /** The bubblewrap binary (a name on PATH or a path); tests point it at a missing one. */
  readonly bwrap?: string;
  /** Folders its commands must not see. */
  readonly hide?: readonly string[];
  /** Environment variables passed to its commands by name (`passEnv`). */
  readonly passEnv?: readonly string[];
}

export function scriptedAgent(scenario: Scenario, options: ScriptedAgentOptions = {}): AgentAdapter {
  return {
    name: 'scripted',
    async turn(request: TurnRequest): Promise<TurnResult> {
      const started = Date.now();
      const lines: string[] = [];
      const say = (line: string) => {
        lines.push(line);
        request.onOutput?.(`${line}\n`);
      };
      const feature = request.context?.feature.id ?? null;
      const turn = matchTurn(scenario, { ...request, feature });
      const who = `${request.role} ${request.step}${request.item ? ` ${request.item}` : ''} attempt ${request.attempt}`;
      if (!turn) {
        const round = (request.round ?? 1) > 1 ? ` in round ${request.round}` : '';
        const declined = `the scripted scenario has no turn for ${who}${round}${feature ? ` of ${feature}` : ''}`;
        say(`[scripted] ${declined}: the agent does nothing.`);
        return {
          exitCode: 0,
          transcript: lines.join('\n'),
          ms: Date.now() - started,
          review: request.step === 'review' ? { decision: 'accept', note: null } : null,
          // A review with no turn accepts (the scenario's default); any other step with none was not taken.
          ...(request.step === 'review' ? {} : { declined }),
        };
      }
      // Decided before the turn touches anything: `required` without bubblewrap refuses the turn.
      const commands = turn.run ?? [];
      const sandbox =
        commands.length > 0
          ? await openSandbox(options.sandbox, [request.worktree], { hide: options.hide ?? [], ...(options.bwrap ? { binary: options.bwrap } : {}) })
          : null;
      say(`[scripted] ${who}`);
      if (sandbox) say(sandbox.note);
      if (turn.say) say(turn.say);
      for (const [path, content] of Object.entries(turn.write ?? {})) {
        const abs = await insideWorktree(request.worktree, path);
        if (abs === null) {
          say(`refused to write ${path}: it leads out of the worktree (a symlink or ..)`);
          continue;
        }
        await mkdir(dirname(abs), { recursive: true });
        await writeFile(abs, content);
        say(`wrote ${path} (${Buffer.byteLength(content)} bytes)`);
      }
      for (const path of turn.delete ?? []) {
        const abs = await insideWorktree(request.worktree, path);
        if (abs === null) {
          say(`refused to delete ${path}: it leads out of the worktree (a symlink or ..)`);
          continue;
        }
        await rm(abs, { force: true, recursive: true });
        say(`deleted ${path}`);
      }
      for (const command of commands) {
        if (!sandbox) break;
        say(`$ ${command}`);
        // An allow-listed environment and a private HOME: no keys, tokens or Baton variables.
        const home = sandbox.active ? '/tmp' : await mkdtemp(join(tmpdir(), 'baton-agent-home-'));
        const spawn = sandbox.spawnOptions(request.worktree, childEnv({ home, pass: options.passEnv ?? [], extra: { ...request.env } }));
        // Output streams to the live panel as it comes, and is kept in the transcript; whatever it
        // started is killed when it ends, even what left its process group.
        const result = await runCommand(command, {
          cwd: request.worktree,
          ...spawn,
          timeoutMs: RUN_TIMEOUT_MS,
          signal: request.signal,
          onOutput: (text) => request.onOutput?.(text),
          reap: true,
        });
        if (!sandbox.active) await rm(home, { recursive: true, force: true });
        for (const text of [result.stdout, result.stderr]) if (text.trim()) lines.push(text.trimEnd());
        say(`(exit ${result.code})`);
      }
      const review = request.step === 'review' ? { decision: turn.decision ?? 'accept', note: turn.note ?? null } : null;
      return { exitCode: turn.exitCode ?? 0, transcript: lines.join('\n'), ms: Date.now() - started, review, said: turn.say ?? '' };
    },
  };
}

/**
 * `<worktree>/<path>` when writing there stays in the worktree: the deepest existing folder on the
 * way is resolved (a `node_modules` link to a shared install would otherwise take the write out),
 * and the result must be inside the worktree's real path. Null when it is not.
 */
const leaves = (rel: string): boolean => rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel);

async function insideWorktree(worktree: string, path: string): Promise<string | null> {
  const root = await realpath(worktree);
  const abs = resolve(worktree, path);
  const rel = relative(resolve(worktree), abs);
  if (rel === '' || leaves(rel)) return null;
  let existing = abs;
  let rest = '';
  for (;;) {
    const real = await realpath(existing).catch(() => null);
    if (real !== null) {
      const target = rest ? join(real, rest) : real;
      const inside = relative(root, target);
      return inside === '' || leaves(inside) ? null : abs;
    }
    // There but not resolvable: a dangling link, whose target a write would create wherever it points.
    if (
      await lstat(existing).then(
        () => true,
        () => false,
      )
    )
      return null;
    rest = rest ? join(existing.slice(dirname(existing).length + 1), rest) : existing.slice(dirname(existing).length + 1);
    existing = dirname(existing);
  }
}
