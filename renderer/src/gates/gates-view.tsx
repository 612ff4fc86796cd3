/** Gates: per feature, who approved what and when, with the hashes of what they saw. */
import type { Feature, Gate } from '../../../shared/model';
import { GateStatusBadge } from '../components/status-badge';
import { friendlyTime, humanize, shortHash } from '../lib/format';
import { useStore } from '../store/store';

function When({ text }: { text: string | null }) {
  if (!text) return <span className="muted">—</span>;
  const friendly = friendlyTime(text);
  return (
    <span className="when">
      {friendly && (
        <span>
          <time dateTime={text}>{friendly.absolute}</time> <span className="muted">· {friendly.relative}</span>
        </span>
      )}
      <span className="mono muted when-raw">{text}</span>
    </span>
  );
}

function GateRow({ featureId, gate }: { featureId: string; gate: Gate }) {
  return (
    // Story-scoped gates can repeat a name per story: data-story tells them apart.
    <tr data-testid={`gate-${featureId}-${gate.name}`} data-story={gate.story ?? undefined}>
      <th scope="row">
        <span className="gate-name">{humanize(gate.name)}</span>
        {gate.story && <span className="gate-story"> · story {gate.story}</span>}
      </th>
      <td>
        <GateStatusBadge status={gate.status} />
      </td>
      <td>{gate.approver ?? <span className="muted">—</span>}</td>
      <td>
        <When text={gate.approvedAt} />
      </td>
      <td>
        {gate.artifacts.length === 0 ? (
          <span className="muted">none</span>
        ) : (
          <ul className="artifacts" role="list">
            {gate.artifacts.map((a) => (
              <li key={`${a.name}/${a.sha256}`}>
                <span>{a.name}</span>{' '}
                <code className="hash" title={`sha256 ${a.sha256}`}>
                  {shortHash(a.sha256)}
                </code>
              </li>
            ))}
          </ul>
        )}
      </td>
    </tr>
  );
}

function FeatureGates({ feature }: { feature: Feature }) {
  const titleId = `gates-title-${feature.id}`;
  return (
    <section className="feature" aria-labelledby={titleId} data-testid={`gates-${feature.id}`}>
      <header className="feature-header">
        <h2 id={titleId}>{feature.name}</h2>
        <span className="mono muted">{feature.id}</span>
      </header>
      {feature.gates.length === 0 ? (
        <p className="muted">No gates recorded yet — the first appears when the spec is approved.</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th scope="col" className="col-gate">
                Gate
              </th>
              <th scope="col" className="col-status">
                Status
              </th>
              <th scope="col" className="col-approver">
                Approver
              </th>
              <th scope="col" className="col-when">
                Approved at
              </th>
              <th scope="col" className="col-artifacts">
                Artifacts
              </th>
            </tr>
          </thead>
          <tbody>
            {feature.gates.map((gate, i) => (
              <GateRow key={`${gate.name}/${gate.story ?? ''}/${i}`} featureId={feature.id} gate={gate} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function GatesView() {
  const features = useStore((s) => s.project?.features);
  if (!features || features.length === 0) {
    return (
      <div className="empty-state">
        <p>No features yet, so no gates — they appear as specs are approved.</p>
      </div>
    );
  }
  return (
    <div className="gates-view">
      {features.map((feature) => (
        <FeatureGates key={feature.id} feature={feature} />
      ))}
    </div>
  );
}
