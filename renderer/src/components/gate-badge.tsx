/**
 * A gate's state as icon and word. A drifted gate (approved, then changed on disk) links to the
 * frozen-versus-current diff; so does an approved one when asked, as "compare with approved".
 */
import type { Gate } from '../../../shared/model';
import { gateKey, refOf } from '../lib/gate-ref';
import { humanize } from '../lib/format';
import { hrefForDiff } from '../store/hash-route';
import { Badge, FALLBACK, GATE_LOOK } from './status-badge';

interface Props {
  readonly feature: string;
  readonly gate: Gate;
  /** Prefix the gate's name ("spec approved"), for places that list several gates together. */
  readonly withName?: boolean;
  /** Link an approved gate to its diff as well (the Specs view's "compare with approved"). */
  readonly linkApproved?: boolean;
}

export function GateBadge({ feature, gate, withName = false, linkApproved = false }: Props) {
  const testId = `gate-badge-${gateKey({ feature, gate: gate.name, story: gate.story })}`;
  const word = withName ? `${humanize(gate.name)} ${gate.status}` : gate.status;
  const look = GATE_LOOK[gate.status] ?? FALLBACK;
  const ref = refOf(feature, gate);
  const linked = ref !== null && (gate.status === 'drifted' || (linkApproved && gate.status === 'approved'));
  if (!linked) return <Badge look={look} word={word} testId={testId} />;
  const title =
    gate.status === 'drifted'
      ? `Changed since it was approved (${gate.drift.map((d) => d.artifact).join(', ') || 'artifacts'}): compare with approved`
      : 'Compare with approved';
  return (
    <a href={hrefForDiff(ref)} className="badge-link" data-testid={testId} title={title} aria-label={`${word}: compare with approved`}>
      <Badge look={look} word={word} />
    </a>
  );
}
