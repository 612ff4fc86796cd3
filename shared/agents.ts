/**
 * How `.baton/project.json` names the agent of each role: an adapter's name (`"scripted"`,
 * `"claude"`) or its settings (`{"adapter": "command", "command": ["my-agent"]}`). Shared by the
 * orchestrator, the CLI and the Settings screen.
 */
import { z } from 'zod';

/** Agent CLIs Baton knows how to drive: each is the `command` adapter with its host's arguments and stream. */
export const PRESETS = ['claude', 'codex', 'aider', 'gemini'] as const;
export type Preset = (typeof PRESETS)[number];
export const AGENT_ADAPTERS = ['scripted', 'command', ...PRESETS] as const;
export type AgentAdapterName = (typeof AGENT_ADAPTERS)[number];

const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'is not an environment variable name');

export const agentConfigSchema = z.strictObject({
  adapter: z.enum(AGENT_ADAPTERS),
  /** The program and its arguments (required for `command`; for a preset, replaces its binary, e.g. ["npx", "claude"]). */
  command: z.array(z.string().min(1)).min(1).optional(),
  /** The model a preset asks its host for (its own default when absent). */
  model: z.string().min(1).optional(),
  /** Extra arguments after the preset's own. */
  args: z.array(z.string()).optional(),
  /** Seconds a turn may take before the whole process tree is killed (default 900). */
  timeoutSeconds: z.number().int().min(1).max(86_400).optional(),
  /** Seconds without any output before the turn is killed (default 300). */
  silenceSeconds: z.number().int().min(1).max(86_400).optional(),
  /** Extra environment for the agent (never put secrets here: project.json is committed; use `passEnv`). */
  env: z.record(envName, z.string()).optional(),
  /**
   * Absolute paths the agent may read beyond its worktree, shown read-only in its sandbox (which
   * shows nothing of the user's home otherwise): a host's config folder it needs, a shared toolchain.
   */
  readPaths: z.array(z.string().regex(/^\//, 'is not an absolute path')).optional(),
});
export type AgentConfig = z.infer<typeof agentConfigSchema>;

export const agentSettingSchema = z.union([z.enum(AGENT_ADAPTERS), agentConfigSchema]);
export type AgentSetting = z.infer<typeof agentSettingSchema>;

/** The setting as settings: a bare name is `{adapter: name}`. */
export const agentConfigOf = (setting: AgentSetting): AgentConfig => (typeof setting === 'string' ? { adapter: setting } : setting);

/** What a turn of a real agent used, as its host reported it (absent figures: not reported). */
export interface AgentUsage {
  readonly host: string;
  readonly model: string | null;
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
  readonly costUsd: number | null;
}

/** The roles a run gives turns to: the design-phase roles (from an intake request), then the cycle's two. */
export const AGENT_ROLES = ['specAuthor', 'architectReviewer', 'dba', 'uxDesigner', 'testStrategist', 'navigator', 'driver'] as const;
export type AgentRole = (typeof AGENT_ROLES)[number];

/** What the Settings screen shows: each role's agent, and whether this project can be changed. */
export interface AgentSettingsView {
  readonly roles: ReadonlyArray<{ readonly role: AgentRole; readonly config: AgentConfig }>;
  /** Why nothing can be saved here (a Consort project, a bundle); null when it can. */
  readonly readOnly: string | null;
  /** How agents are contained on this machine: `block` (bubblewrap) or `detect and revert`, with why. */
  readonly enforcement: { readonly mode: 'block' | 'detect and revert'; readonly detail: string };
  /** This user's signing key (null: none yet) and the emails approverKeys in project.json lists it for. */
  readonly signing: { readonly key: string | null; readonly listedFor: readonly string[] };
}

/** The preflight of one role's agent (the Settings screen's Check, and before every run). */
export interface AgentCheck {
  readonly ok: boolean;
  readonly problem: string | null;
  readonly program: string | null;
  readonly loggedIn: boolean | null;
}
