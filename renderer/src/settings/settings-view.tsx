/**
 * Settings: the project's settings a Product Owner tunes (project-settings.tsx), then each cycle
 * role's agent (agent-form.tsx). A read-only project shows its settings and offers no Save.
 */
import { useEffect, useState } from 'react';
import type { AgentSettingsView } from '../../../shared/agents';
import type { AppError } from '../../../shared/result';
import { api } from '../../client';
import { ErrorBanner } from '../components/error-banner';
import { useStore } from '../store/store';
import { RoleForm } from './agent-form';
import { ProjectSettingsSection } from './project-settings';

export function SettingsView() {
  const root = useStore((s) => s.project?.root ?? null);
  const [view, setView] = useState<AgentSettingsView | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  useEffect(() => {
    let live = true;
    void api.invoke('agents:settings', {}).then((r) => {
      if (!live) return;
      if (r.ok) setView(r.value);
      else setError(r.error);
    });
    return () => {
      live = false;
    };
  }, [root]);

  return (
    <section className="settings" data-testid="settings-view">
      <ProjectSettingsSection />
      <h1>Agents</h1>
      {error && <ErrorBanner error={error} title="The settings cannot be read" />}
      {view && (
        <>
          <p className="muted" data-testid="agent-enforcement">
            Enforcement on this machine: <strong>{view.enforcement.mode}</strong>. {view.enforcement.detail}
          </p>
          {view.readOnly && (
            <p className="muted" data-testid="settings-read-only">
              {view.readOnly}
            </p>
          )}
          <SigningSection signing={view.signing} />
          {view.roles.map(({ role, config }) => (
            <RoleForm key={`${root}-${role}`} role={role} config={config} readOnly={view.readOnly !== null} onSaved={setView} />
          ))}
        </>
      )}
    </section>
  );
}

/** Who you are when you decide: your key, whom the policy lists it for, and the one command that sets it up. */
function SigningSection({ signing }: { signing: AgentSettingsView['signing'] }) {
  const root = useStore((s) => s.project?.root ?? '<dir>');
  return (
    <section className="settings-signing" data-testid="settings-signing" aria-labelledby="settings-signing-title">
      <h2 id="settings-signing-title">Your approvals</h2>
      {signing.key ? (
        <p>
          Your signing key on this machine: <code data-testid="settings-signing-key">{signing.key}</code>.{' '}
          {signing.listedFor.length > 0
            ? `approverKeys in project.json lists it for ${signing.listedFor.join(', ')}: your decisions as ${signing.listedFor.length === 1 ? 'that email' : 'those emails'} are signed with it, and \`baton verify\` proves they were yours.`
            : 'No one in approverKeys is listed with it yet, so your approvals read as a typed name.'}
        </p>
      ) : (
        <p data-testid="settings-signing-none">This machine has no signing key yet: your approvals are recorded as a typed name, not signed.</p>
      )}
      <p className="muted">
        To prove who approves, each approver runs once, on their own machine: <code>baton key {root} --approver "Your Name &lt;you@example.com&gt;"</code>. It
        makes the key (kept in your config folder, never in the project) and lists it under approverKeys in .baton/project.json; commit that file. From then on
        a decision as that email without the key is refused, and `baton verify --strict` fails on any approval under the policy that is not signed by a listed
        key.
      </p>
    </section>
  );
}
