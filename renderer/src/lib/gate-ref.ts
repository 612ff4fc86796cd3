/** How the renderer names one gate: feature, gate and (for per-story gates) story. */
import { GATE_NAMES, type GateName } from '../../../shared/ledger';
import type { Gate } from '../../../shared/model';

export interface GateRef {
  readonly feature: string;
  readonly gate: GateName;
  readonly story: string | null;
}

/** Consort names some gates Baton does not decide (e.g. `plan`); those have no evidence channel. */
export const isGateName = (name: string): name is GateName => (GATE_NAMES as readonly string[]).includes(name);

export const refOf = (feature: string, gate: Gate): GateRef | null => (isGateName(gate.name) ? { feature, gate: gate.name, story: gate.story } : null);

/** `F-1-spec`, `F-1-acceptance-S-2`: the suffix of the gate's test ids and its React key. */
export const gateKey = (ref: { feature: string; gate: string; story: string | null }): string =>
  ref.story ? `${ref.feature}-${ref.gate}-${ref.story}` : `${ref.feature}-${ref.gate}`;

export const sameRef = (a: GateRef | null, b: GateRef | null): boolean =>
  a !== null && b !== null && a.feature === b.feature && a.gate === b.gate && a.story === b.story;

/** The contract's request: `story` is omitted, not null, for feature-level gates. */
export const requestOf = (ref: GateRef) => ({
  feature: ref.feature,
  gate: ref.gate,
  ...(ref.story ? { story: ref.story } : {}),
});

/** Artifact names are paths (`stories/S-1/story.json`); test ids use `_` for `/`. */
export const artifactTestId = (name: string): string => `evidence-artifact-${name.replace(/\//g, '_')}`;
