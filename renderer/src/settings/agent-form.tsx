/**
 * One cycle role's agent on the Settings screen — adapter, command or preset, model, extra
 * arguments, read paths, timeouts — with a Check that runs the preflight (installed? logged in?)
 * and a Save that writes project.json after main validates it.
 */
import { Fragment, useState } from 'react';
import { AGENT_ADAPTERS, type AgentCheck, type AgentConfig, type AgentRole, type AgentSettingsView } from '../../../shared/agents';
import type { AppError } from '../../../shared/result';
import { api } from '../../client';
import { ErrorBanner } from '../components/error-banner';

const ROLE_LABEL: Readonly<Record<AgentRole, string>> = {
  specAuthor: 'Spec Author — writes the spec, stories and acceptance criteria',
  architectReviewer: 'Architect Reviewer — layers, fitness checks, persistence invariants',
  dba: 'DBA — tables, constraints and planned migrations',
  uxDesigner: 'UX Designer — screens and their states',
  testStrategist: 'Test Strategist — the ordered test list',
  navigator: 'Navigator — writes the failing tests and reviews',
  driver: 'Driver — makes them pass and refactors',
};

/** The form's text fields; turned into an AgentConfig (or a problem) on Check and Save. */
interface Draft {
  adapter: AgentConfig['adapter'];
  command: string;
  model: string;
  args: string;
  readPaths: string;
  timeoutSeconds: string;
  silenceSeconds: string;
}

const SECONDS = [
  { key: 'timeoutSeconds', name: 'timeout', label: 'Timeout (s)', placeholder: '900' },
  { key: 'silenceSeconds', name: 'silence', label: 'Silence limit (s)', placeholder: '300' },
] as const;

const draftOf = (c: AgentConfig): Draft => ({
  adapter: c.adapter,
  command: (c.command ?? []).join('\n'),
  model: c.model ?? '',
  args: (c.args ?? []).join('\n'),
  readPaths: (c.readPaths ?? []).join('\n'),
  timeoutSeconds: c.timeoutSeconds ? String(c.timeoutSeconds) : '',
  silenceSeconds: c.silenceSeconds ? String(c.silenceSeconds) : '',
});

const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** The setting the draft says, or what is wrong with it (said next to the field). */
export function configOf(d: Draft, env: AgentConfig['env']): { config: AgentConfig } | { problem: string } {
  const seconds = (text: string, name: string): number | undefined | string => {
    if (!text.trim()) return undefined;
    const n = Number(text);
    return Number.isInteger(n) && n >= 1 && n <= 86_400 ? n : `${name} must be a whole number of seconds from 1 to 86400.`;
  };
  const timeout = seconds(d.timeoutSeconds, 'Timeout');
  const silence = seconds(d.silenceSeconds, 'Silence limit');
  if (typeof timeout === 'string') return { problem: timeout };
  if (typeof silence === 'string') return { problem: silence };
  const command = lines(d.command);
  const readPaths = lines(d.readPaths);
  const relative = readPaths.find((p) => !p.startsWith('/'));
  if (relative !== undefined) return { problem: `Read paths must be absolute: "${relative}" is not (one path per line, each starting with /).` };
  if (d.adapter === 'command' && command.length === 0) return { problem: 'The command adapter needs a command: the program, then one argument per line.' };
  return {
    config: {
      adapter: d.adapter,
      ...(command.length && d.adapter !== 'scripted' ? { command } : {}),
      ...(d.model.trim() && d.adapter !== 'scripted' ? { model: d.model.trim() } : {}),
      ...(lines(d.args).length && d.adapter !== 'scripted' ? { args: lines(d.args) } : {}),
      ...(readPaths.length && d.adapter !== 'scripted' ? { readPaths } : {}),
      ...(timeout !== undefined ? { timeoutSeconds: timeout } : {}),
      ...(silence !== undefined ? { silenceSeconds: silence } : {}),
      ...(env ? { env } : {}),
    },
  };
}

export function RoleForm({
  role,
  config,
  readOnly,
  onSaved,
}: {
  role: AgentRole;
  config: AgentConfig;
  readOnly: boolean;
  onSaved: (v: AgentSettingsView) => void;
}) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(config));
  const [problem, setProblem] = useState<string | null>(null);
  const [check, setCheck] = useState<AgentCheck | null>(null);
  const [busy, setBusy] = useState<'check' | 'save' | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  const [saved, setSaved] = useState(false);
  const set = (patch: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setSaved(false);
    setCheck(null);
  };
  const real = draft.adapter !== 'scripted';
  const id = (name: string) => `agent-${role}-${name}`;

  const run = async (what: 'check' | 'save') => {
    const built = configOf(draft, config.env);
    if ('problem' in built) {
      setProblem(built.problem);
      return;
    }
    setProblem(null);
    setError(null);
    setBusy(what);
    const result =
      what === 'check' ? await api.invoke('agents:check', { role, config: built.config }) : await api.invoke('agents:save', { role, config: built.config });
    setBusy(null);
    if (!result.ok) return setError(result.error);
    if (what === 'check') setCheck(result.value as AgentCheck);
    else {
      setSaved(true);
      onSaved(result.value as AgentSettingsView);
    }
  };

  return (
    <form
      className="settings-role"
      data-testid={`agent-settings-${role}`}
      onSubmit={(e) => {
        e.preventDefault();
        if (!readOnly) void run('save');
      }}
    >
      <h2>{ROLE_LABEL[role]}</h2>
      <div className="settings-grid">
        <label htmlFor={id('adapter')}>Adapter</label>
        <select
          id={id('adapter')}
          data-testid={`agent-${role}-adapter`}
          value={draft.adapter}
          disabled={readOnly}
          onChange={(e) => set({ adapter: e.target.value as Draft['adapter'] })}
        >
          {AGENT_ADAPTERS.map((a) => (
            <option key={a} value={a}>
              {a === 'scripted' ? 'scripted (scenario file)' : a === 'command' ? 'command (any program)' : a}
            </option>
          ))}
        </select>
        {real && (
          <>
            <label htmlFor={id('command')}>{draft.adapter === 'command' ? 'Command' : 'Command (optional)'}</label>
            <textarea
              id={id('command')}
              data-testid={`agent-${role}-command`}
              rows={2}
              placeholder={draft.adapter === 'command' ? 'my-agent\n--flag' : `${draft.adapter} (the preset's own binary)`}
              value={draft.command}
              disabled={readOnly}
              onChange={(e) => set({ command: e.target.value })}
              aria-describedby={id('command-hint')}
            />
            <span id={id('command-hint')} className="muted settings-hint">
              The program, then one argument per line.
            </span>
            <label htmlFor={id('model')}>Model</label>
            <input
              id={id('model')}
              data-testid={`agent-${role}-model`}
              value={draft.model}
              disabled={readOnly}
              placeholder="the host's default"
              onChange={(e) => set({ model: e.target.value })}
            />
            <label htmlFor={id('args')}>Extra arguments</label>
            <textarea
              id={id('args')}
              data-testid={`agent-${role}-args`}
              rows={2}
              value={draft.args}
              disabled={readOnly}
              onChange={(e) => set({ args: e.target.value })}
            />
            <label htmlFor={id('read-paths')}>Read paths</label>
            <textarea
              id={id('read-paths')}
              data-testid={`agent-${role}-read-paths`}
              rows={2}
              value={draft.readPaths}
              disabled={readOnly}
              placeholder="none"
              aria-describedby={id('read-paths-hint')}
              onChange={(e) => set({ readPaths: e.target.value })}
            />
            <span id={id('read-paths-hint')} className="muted settings-hint">
              Absolute paths the agent may read beyond its worktree, one per line: its sandbox shows nothing else of this machine.
            </span>
            {SECONDS.map(({ key, name, label, placeholder }) => (
              <Fragment key={key}>
                <label htmlFor={id(name)}>{label}</label>
                <input
                  id={id(name)}
                  data-testid={`agent-${role}-${name}`}
                  inputMode="numeric"
                  value={draft[key]}
                  placeholder={placeholder}
                  disabled={readOnly}
                  onChange={(e) => set({ [key]: e.target.value })}
                />
              </Fragment>
            ))}
          </>
        )}
      </div>
      {problem && (
        <p className="field-error" role="alert" data-testid={`agent-${role}-problem`}>
          {problem}
        </p>
      )}
      {error && <ErrorBanner error={error} onDismiss={() => setError(null)} />}
      {check && (
        <p className={check.ok ? 'check-ok' : 'field-error'} role="status" data-testid={`agent-${role}-check`}>
          {check.ok ? `Ready: ${check.program ?? 'the scripted agent'}${check.loggedIn ? ', logged in' : ''}.` : check.problem}
        </p>
      )}
      <div className="settings-actions">
        <button type="button" className="button" data-testid={`agent-${role}-check-button`} disabled={busy !== null} onClick={() => void run('check')}>
          {busy === 'check' ? 'Checking…' : 'Check'}
        </button>
        {!readOnly && (
          <button type="submit" className="button button-primary" data-testid={`agent-${role}-save`} disabled={busy !== null}>
            {busy === 'save' ? 'Saving…' : 'Save'}
          </button>
        )}
        {saved && (
          <span className="check-ok" role="status" data-testid={`agent-${role}-saved`}>
            Saved to .baton/project.json
          </span>
        )}
      </div>
    </form>
  );
}
