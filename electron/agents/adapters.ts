/**
 * Agent adapters by name, as `.baton/project.json` (or `baton run --agent role=adapter`) names
 * them: `scripted` (a scenario file), `command` (any program) and the presets for Claude Code,
 * Codex, Aider and Gemini CLI. A real agent is checked before the run starts: its program is there
 * and it is logged in.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { AGENT_ADAPTERS, agentConfigOf, type AgentSetting } from '../../shared/agents';
import type { AgentAdapter } from './agent-port';
import { commandAgent, preflightAgent } from './command-agent';
import type { SandboxSetting } from '../process/sandbox';
import { parseScenario } from './scenario';
import { scriptedAgent } from './scripted-agent';

export { AGENT_ADAPTERS as ADAPTERS } from '../../shared/agents';

export interface AgentProject {
  readonly root: string;
  readonly scenario: string | undefined;
  /** `sandbox` from .baton/project.json; absent: `auto`. */
  readonly sandbox?: SandboxSetting | undefined;
  /** The bubblewrap binary (a name on PATH or a path); tests point it at a missing one. */
  readonly bwrap?: string;
  /** Folders the agent's commands must not see (Baton's config and data folders, its installation). */
  readonly hide?: readonly string[];
  /** Environment variables the project passes to agents' commands (`passEnv`). */
  readonly passEnv?: readonly string[];
  /** Where agents' variables come from (default process.env). */
  readonly from?: NodeJS.ProcessEnv;
  /** The person's HOME, for a preset's login files (default os.homedir()). */
  readonly home?: string;
}

export async function createAgent(role: string, setting: AgentSetting | string, project: AgentProject): Promise<AgentAdapter> {
  if (typeof setting === 'string' && !(AGENT_ADAPTERS as readonly string[]).includes(setting)) {
    throw new Error(
      `No agent adapter named "${setting}". Available: ${AGENT_ADAPTERS.join(', ')}. Change "agents" in .baton/project.json or pass --agent role=scripted.`,
    );
  }
  const config = agentConfigOf(setting as AgentSetting);
  if (config.adapter !== 'scripted') {
    const check = await preflightAgent(role, config, { ...(project.from ? { from: project.from } : {}), ...(project.home ? { home: project.home } : {}) });
    if (!check.ok) throw new Error(check.problem ?? `The ${role}'s agent cannot run.`);
    return commandAgent({
      config,
      ...(project.sandbox ? { sandbox: project.sandbox } : {}),
      ...(project.bwrap ? { bwrap: project.bwrap } : {}),
      hide: project.hide ?? [],
      passEnv: project.passEnv ?? [],
      ...(project.from ? { from: project.from } : {}),
      ...(project.home ? { home: project.home } : {}),
    });
  }
  if (!project.scenario)
    throw new Error('The scripted agent needs a scenario: set "scenario" in .baton/project.json to a file such as ".baton/scenario.json".');
  const file = resolve(project.root, project.scenario);
  const text = await readFile(file, 'utf8').catch(() => {
    throw new Error(`The scenario file ${file} (from "scenario" in .baton/project.json) cannot be read. Create it or fix the path.`);
  });
  return scriptedAgent(parseScenario(text, project.scenario), {
    ...(project.sandbox ? { sandbox: project.sandbox } : {}),
    ...(project.bwrap ? { bwrap: project.bwrap } : {}),
    hide: project.hide ?? [],
    passEnv: project.passEnv ?? [],
  });
}
