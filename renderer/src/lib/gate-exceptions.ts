/**
 * Approve with exceptions (issue 32): a story's acceptance whose only obstacle is unproven ACs can
 * be approved anyway, as a separate act that names every unproven AC and says why. Pure.
 */
import type { AcProof, GateEvidence } from '../../../shared/ledger';
import type { Feature } from '../../../shared/model';

/**
 * The ACs an approval with exceptions would accept unproven: every one not proven, but only when
 * the backend says they alone stand in the way (`unproven`); otherwise none, and nothing is offered.
 */
export const exceptionsOffered = (evidence: GateEvidence | null): readonly AcProof[] =>
  evidence?.approvable.code === 'unproven' ? evidence.summary.acs.filter((ac) => !ac.proven) : [];

/** Why Approve is disabled, in the decision bar (the notice above it lists each unproven AC and why). */
export const unprovenHint = (acs: readonly Pick<AcProof, 'id'>[]): string => {
  const ids = acs.map((ac) => ac.id);
  const named = ids.length === 1 ? `${ids[0]} is` : `${ids.slice(0, -1).join(', ')} and ${ids.at(-1)} are`;
  return `Approve needs every AC proven; ${named} not (see above). Approve with exceptions… accepts the story anyway.`;
};

/** The `exceptions` of gates:approve: each AC shown once (the backend wants exactly every unproven one) and the reason trimmed. */
export const exceptionsRequest = (acs: readonly AcProof[], reason: string): { acs: string[]; reason: string } => ({
  acs: [...new Set(acs.map((ac) => ac.id))],
  reason: reason.trim(),
});

/** An AC's title in the story an approval with exceptions accepted, for the note shown with it (undefined when the story no longer names it). */
export const acTitleIn =
  (feature: Pick<Feature, 'stories'> | undefined, story: string | null) =>
  (ac: string): string | undefined =>
    feature?.stories.find((s) => s.id === story)?.acs.find((a) => a.id === ac)?.title || undefined;
