/**
 * The agents an evaluation compares (`--agents`): every workflow gets the same agent host, model
 * and limits. `fakes` is the harness's own check (fixtures/fake-agent.mjs with an honest, a sloppy
 * and a cheating behaviour per task; no model); a JSON file names real ones:
 * `{"claude-sonnet": {"adapter": "claude", "model": "sonnet", "timeoutSeconds": 900}, …}`;
 * a comma list of adapter names (`claude,codex`) is the short form.
 */
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { AGENT_ADAPTERS, agentSettingSchema, type AgentSetting } from '../../shared/agents';
import { preflightAgent } from '../agents/command-agent';
import { packageRoot } from '../platform/package-root';
import type { EvalTask } from './types';

export interface EvalAgent {
  readonly name: string;
  /** The agent setting for every role of a run of `task` (the fakes' behaviour depends on the task). */
  settingFor(task: EvalTask): AgentSetting;
  /** What is missing for `task`, if anything (a fake with no behaviour file for it, a host not installed or not logged in). */
  missingFor(task: EvalTask): Promise<string | null>;
}

export const FAKE_BEHAVIOURS = ['honest', 'sloppy', 'cheater'] as const;
export const fakesDir = (): string => join(packageRoot(import.meta.url), 'electron', 'eval', 'fixtures');

function fake(name: string): EvalAgent {
  const file = (task: EvalTask) => join(fakesDir(), 'fakes', task.id, `${name}.json`);
  return {
    name,
    settingFor: (task) => ({ adapter: 'command', command: [process.execPath, join(fakesDir(), 'fake-agent.mjs'), file(task)], timeoutSeconds: 120 }),
    missingFor: (task) =>
      access(file(task)).then(
        () => null,
        () => `the fake agent "${name}" has no behaviour for task ${task.id} (${file(task)})`,
      ),
  };
}

/** A real agent host, checked before the first run: its program is there and it is logged in. */
const real = (name: string, setting: AgentSetting): EvalAgent => ({
  name,
  settingFor: () => setting,
  missingFor: async () => {
    const check = await preflightAgent('driver', setting);
    return check.ok ? null : `the agent "${name}" cannot run: ${check.problem ?? 'its preflight failed'}`;
  },
});

const agentsFileSchema = z.record(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/, 'letters, digits, dots, dashes; at most 40'), agentSettingSchema);

export async function resolveAgents(spec: string): Promise<EvalAgent[]> {
  const value = spec.trim();
  if (value === 'fakes') return FAKE_BEHAVIOURS.map(fake);
  if (value.endsWith('.json')) {
    let raw: unknown;
    try {
      raw = JSON.parse(await readFile(value, 'utf8'));
    } catch (error) {
      throw new Error(`--agents ${value} does not read as JSON (${error instanceof Error ? error.message : String(error)}).`);
    }
    const parsed = agentsFileSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new Error(
        `--agents ${value}: ${issue.path.join('.') || '(top level)'}: ${issue.message}. Each entry is a name and an agent setting as in project.json's "agents".`,
      );
    }
    const entries = Object.entries(parsed.data);
    if (entries.length === 0) throw new Error(`--agents ${value} names no agent.`);
    return entries.map(([name, setting]) => real(name, setting));
  }
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const hosts = AGENT_ADAPTERS.filter((a) => a !== 'scripted' && a !== 'command') as readonly string[];
  const unknown = names.filter((n) => !hosts.includes(n));
  if (names.length === 0 || unknown.length)
    throw new Error(`--agents ${JSON.stringify(spec)}: give "fakes", a JSON file of named agent settings, or adapter names (${hosts.join(', ')}).`);
  return names.map((n) => real(n, n as AgentSetting));
}
