/** The agents of a run: each cycle role's adapter from project.json or `--agent`, checked before the run starts (preflight). */
import { agentConfigOf, AGENT_ROLES } from '../../shared/agents';
import { createAgent } from '../agents/adapters';
import type { AgentAdapter, Role } from '../agents/agent-port';
import type { ProjectSettings } from '../project/settings';

export async function agentsFor(
  root: string,
  settings: ProjectSettings,
  overrides: Readonly<Record<string, string>>,
  hide: readonly string[],
): Promise<Map<Role, AgentAdapter>> {
  const out = new Map<Role, AgentAdapter>();
  for (const role of AGENT_ROLES) {
    const configured = settings.agents[role] ?? 'scripted';
    const override = overrides[role];
    // `--agent driver=claude` keeps the project's settings for claude (model, command) when it has them.
    const setting = override === undefined || override === agentConfigOf(configured).adapter ? configured : override;
    out.set(role, await createAgent(role, setting, { root, scenario: settings.scenario, sandbox: settings.sandbox, hide, passEnv: settings.passEnv ?? [] }));
  }
  return out;
}
