/** Where a resumed run picks up: a design step that escalated, a gate already decided when the run starts at it. */
import type { GateName } from '../../shared/ledger';
import type { LifecycleStateName } from '../../shared/run';
import { foldGates, gateKey } from '../gates';
import type { Ledger } from '../ledger';
import { amendmentToRerun } from '../gates/amendments';

/** The lifecycle state each gate is reached in (`--until` stops there). */
export const GATE_STATE: Readonly<Record<GateName, LifecycleStateName>> = {
  spec: 'specGate',
  design: 'designGate',
  test_list: 'testListGate',
  acceptance: 'acceptance',
  deploy: 'deployGate',
  promote: 'promoting',
};

/** Whether the feature-level gate waited on in `state` has been approved or rejected, or an approved test amendment sends the run back to building. */
export async function decidedGate(ledger: Ledger, feature: string, state: string): Promise<boolean> {
  const records = (await ledger.read()).records;
  if (REBUILT_FROM.has(state) && amendmentToRerun(records, feature)) return true;
  // Acceptance is decided per story, and promoting is work, not a wait: neither is "already decided" as one gate.
  const gate = (Object.keys(GATE_STATE) as GateName[]).find((g) => GATE_STATE[g] === state && g !== 'acceptance' && g !== 'promote');
  if (!gate) return false;
  const status = foldGates(records).get(gateKey({ feature, gate }))?.status;
  return status === 'approved' || status === 'rejected';
}

/** The gate states an approved test amendment sends back to building (the items must run again before anything is accepted). */
export const REBUILT_FROM: ReadonlySet<string> = new Set(['acceptance', 'deployGate']);

/** The state a design step works in, by the step's id. */
export const DESIGN_STATE: Readonly<Record<string, LifecycleStateName>> = { specify: 'specifying', design: 'designing', listTests: 'testListing' };
