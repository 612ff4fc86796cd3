/**
 * The Settings screen's agents: each cycle role's adapter read from `.baton/project.json`, saved
 * back one role at a time (the whole file validated before it is written, everything else in it
 * kept), and the preflight a "Check" runs. A read-only project shows its settings and saves nothing.
 */
import { rename, writeFile } from 'node:fs/promises';
import { AGENT_ROLES, agentConfigOf, type AgentCheck, type AgentConfig, type AgentRole, type AgentSettingsView } from '../../shared/agents';
import type { ProjectView } from '../../shared/model';
import { readOnlyReason, writableProject } from '../../shared/read-only';
import { err, ok, type Result } from '../../shared/result';
import { preflightAgent } from '../agents/command-agent';
import { detectBubblewrap } from '../process/sandbox';
import { projectSettingsSchema } from '../project/settings';
import { readSettings } from '../project/read-settings';

const NO_PROJECT = 'No project is open. Open a project folder first.';

export async function agentSettings(view: ProjectView | null): Promise<Result<AgentSettingsView>> {
  if (!view) return err('no-project', NO_PROJECT);
  const readOnly = readOnlyReason(view, 'changes');
  const read = view.layout === 'baton' ? await readSettings(view.artifactRoot) : null;
  if (read && !read.ok) return read;
  const agents = read?.value.settings.agents ?? {};
  const support = await detectBubblewrap();
  const sandbox = read?.value.settings.sandbox ?? 'auto';
  const enforcement: AgentSettingsView['enforcement'] =
    support.ok && sandbox !== 'off'
      ? { mode: 'block', detail: 'Agents run in a bubblewrap sandbox: only their worktree and a private HOME are writable; locked tests are read-only.' }
      : {
          mode: 'detect and revert',
          detail: `${sandbox === 'off' ? 'The sandbox is off ("sandbox": "off" in project.json)' : `No sandbox here (${support.ok ? '' : support.reason})`}: what an agent writes outside its scope is detected and reverted after the turn, not blocked.`,
        };
  return ok({ roles: AGENT_ROLES.map((role) => ({ role, config: agentConfigOf(agents[role] ?? 'scripted') })), readOnly, enforcement });
}

export async function saveAgent(view: ProjectView | null, role: AgentRole, config: AgentConfig): Promise<Result<AgentSettingsView>> {
  if (!view) return err('no-project', NO_PROJECT);
  const writable = writableProject(view, 'changes');
  if (!writable.ok) return writable;
  if (config.adapter === 'command' && !config.command)
    return err('invalid-request', `The ${role}'s "command" adapter needs a command: the program and its arguments.`);
  const read = await readSettings(view.artifactRoot);
  if (!read.ok) return read;
  const json = JSON.parse(read.value.text) as Record<string, unknown>;
  const next = { ...json, agents: { ...(json.agents as Record<string, unknown>), [role]: compact(config) } };
  const parsed = projectSettingsSchema.safeParse(next);
  if (!parsed.success)
    return err('invalid-request', `Not saved: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}. project.json is unchanged.`);
  // Written whole, then renamed: a crash never leaves half a project.json.
  const temp = `${read.value.file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(next, null, 2)}\n`);
  await rename(temp, read.value.file);
  return agentSettings(view);
}

export async function checkAgent(role: AgentRole, config: AgentConfig): Promise<Result<AgentCheck>> {
  return ok(await preflightAgent(role, config));
}

/** The setting as written: a bare name when it has nothing but its adapter. */
function compact(config: AgentConfig): AgentConfig | AgentConfig['adapter'] {
  const entries = Object.entries(config).filter(
    ([, v]) =>
      v !== undefined && !(Array.isArray(v) && v.length === 0) && !(typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0),
  );
  return entries.length === 1 ? config.adapter : (Object.fromEntries(entries) as AgentConfig);
}
