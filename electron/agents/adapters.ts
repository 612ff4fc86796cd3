/**
 * Agent adapters by name, as `.baton/project.json` (or `baton run --agent role=adapter`) names
 * them. Only `scripted` ships today; a real agent CLI adapter plugs in here.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentAdapter } from './agent-port';
import type { SandboxSetting } from '../process/sandbox';
import { parseScenario } from './scenario';
import { scriptedAgent } from './scripted-agent';

export const ADAPTERS = ['scripted'] as const;

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
}

export async function createAgent(name: string, project: AgentProject): Promise<AgentAdapter> {
  if (name !== 'scripted') {
    throw new Error(
      `No agent adapter named "${name}". Available: ${ADAPTERS.join(', ')}. Change "agents" in .baton/project.json or pass --agent role=scripted.`,
    );
  }
  if (!project.scenario)
    throw new Error('The scripted agent needs a scenario: set "scenario" in .baton/project.json to a file such as ".baton/scenario.json".');
  const file = join(project.root, project.scenario);
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
