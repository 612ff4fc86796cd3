/**
 * The `scripted` adapter: a deterministic agent that plays a scenario file. It is how the demo
 * and the tests exercise the whole loop without a model: writes and deletes happen in the turn's
 * worktree, then `run` commands execute there (through the shell, with the turn's environment),
 * inside the sandbox where the `sandbox` setting allows: only the worktree is writable.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runCommand } from '../branches/run-command';
import type { AgentAdapter, TurnRequest, TurnResult } from './agent-port';
import { openSandbox, type SandboxSetting } from './sandbox';
import { matchTurn, type Scenario } from './scenario';

const RUN_TIMEOUT_MS = 120_000;

export interface ScriptedAgentOptions {
  /** The project's `sandbox` setting; absent: `auto`. */
  readonly sandbox?: SandboxSetting;
  /** The bubblewrap binary (a name on PATH or a path); tests point it at a missing one. */
  readonly bwrap?: string;
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
      const turn = matchTurn(scenario, request);
      const who = `${request.role} ${request.step}${request.item ? ` ${request.item}` : ''} attempt ${request.attempt}`;
      if (!turn) {
        say(`[scripted] no turn for ${who}: the agent does nothing.`);
        return { exitCode: 0, transcript: lines.join('\n'), ms: Date.now() - started, review: request.step === 'review' ? { decision: 'accept', note: null } : null };
      }
      // Decided before the turn touches anything: `required` without bubblewrap refuses the turn.
      const commands = turn.run ?? [];
      const sandbox = commands.length > 0 ? await openSandbox(options.sandbox, [request.worktree], options.bwrap ? { binary: options.bwrap } : {}) : null;
      say(`[scripted] ${who}`);
      if (sandbox) say(sandbox.note);
      if (turn.say) say(turn.say);
      for (const [path, content] of Object.entries(turn.write ?? {})) {
        const abs = join(request.worktree, path);
        await mkdir(dirname(abs), { recursive: true });
        await writeFile(abs, content);
        say(`wrote ${path} (${Buffer.byteLength(content)} bytes)`);
      }
      for (const path of turn.delete ?? []) {
        await rm(join(request.worktree, path), { force: true, recursive: true });
        say(`deleted ${path}`);
      }
      for (const command of commands) {
        if (!sandbox) break;
        say(`$ ${command}`);
        const spawn = sandbox.spawnOptions(request.worktree, { ...process.env, ...request.env });
        // Output streams to the live panel as it comes, and is kept in the transcript.
        const result = await runCommand(command, { cwd: request.worktree, ...spawn, timeoutMs: RUN_TIMEOUT_MS, signal: request.signal, onOutput: (text) => request.onOutput?.(text) });
        for (const text of [result.stdout, result.stderr]) if (text.trim()) lines.push(text.trimEnd());
        say(`(exit ${result.code})`);
      }
      const review = request.step === 'review' ? { decision: turn.decision ?? 'accept', note: turn.note ?? null } : null;
      return { exitCode: turn.exitCode ?? 0, transcript: lines.join('\n'), ms: Date.now() - started, review };
    },
  };
}
