/**
 * The Settings screen's agents: each cycle role's adapter read from `.baton/project.json`, saved
 * back one role at a time (the whole file validated before it is written, everything else in it
 * kept), and the preflight a "Check" runs. A read-only project shows its settings and saves nothing.
 */
import { AGENT_ROLES, agentConfigOf, type AgentCheck, type AgentConfig, type AgentRole, type AgentSettingsView } from '../../shared/agents';
import type { ProjectView } from '../../shared/model';
import { readOnlyReason, writableProject } from '../../shared/read-only';
import { err, ok, type Result } from '../../shared/result';
import { preflightAgent } from '../agents/command-agent';
import { detectBubblewrap } from '../process/sandbox';
import { readSettings } from '../project/read-settings';
import { loadSigningKey } from '../ledger';
import { replaceSettings } from '../project/write-settings';

const NO_PROJECT = 'No project is open. Open a project folder first.';

export async function agentSettings(view: ProjectView | null, configDir: string): Promise<Result<AgentSettingsView>> {
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
  // Who this user is as an approver: their key, and whom the policy lists it for (shared/approvers.ts).
  const key = (await loadSigningKey(configDir).catch(() => null))?.publicKeyText ?? null;
  const approverKeys = Object.entries(read?.value.settings.approverKeys ?? {});
  const signing = { key, listedFor: key ? approverKeys.filter(([, keys]) => keys.includes(key)).map(([email]) => email) : [] };
  return ok({ roles: AGENT_ROLES.map((role) => ({ role, config: agentConfigOf(agents[role] ?? 'scripted') })), readOnly, enforcement, signing });
}

export async function saveAgent(view: ProjectView | null, role: AgentRole, config: AgentConfig, configDir: string): Promise<Result<AgentSettingsView>> {
  if (!view) return err('no-project', NO_PROJECT);
  const writable = writableProject(view, 'changes');
  if (!writable.ok) return writable;
  if (config.adapter === 'command' && !config.command)
    return err('invalid-request', `The ${role}'s "command" adapter needs a command: the program and its arguments.`);
  const read = await readSettings(view.artifactRoot);
  if (!read.ok) return read;
  const json = JSON.parse(read.value.text) as Record<string, unknown>;
  const next = { ...json, agents: { ...(json.agents as Record<string, unknown>), [role]: compact(config) } };
  const saved = await replaceSettings(read.value.file, next);
  if (!saved.ok) return saved;
  return agentSettings(view, configDir);
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
