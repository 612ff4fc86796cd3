/**
 * The evidence of one gate, fetched when the gate or the project changes. `reload()` resolves
 * once the new evidence is shown, so a stale approval can say "reloaded" truthfully.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { GateEvidence } from '../../../shared/ledger';
import type { AppError } from '../../../shared/result';
import type { GateRef } from '../lib/gate-ref';
import { loadEvidence } from '../store/gate-actions';
import { useStore } from '../store/store';

export interface EvidenceState {
  /** The last evidence loaded; kept while a reload runs so the screen does not flash. */
  readonly evidence: GateEvidence | null;
  readonly error: AppError | null;
  readonly loading: boolean;
  reload(): Promise<void>;
}

export function useGateEvidence(ref: GateRef | null): EvidenceState {
  // A re-read of the project (a decision, Reload) may change what the gate is about.
  const project = useStore((s) => s.project);
  const [evidence, setEvidence] = useState<GateEvidence | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  const [loading, setLoading] = useState(ref !== null);
  const latest = useRef(0);
  const feature = ref?.feature;
  const gate = ref?.gate;
  const story = ref?.story ?? null;

  const fetchEvidence = useCallback(async () => {
    if (!feature || !gate) return;
    const request = ++latest.current;
    setLoading(true);
    const result = await loadEvidence({ feature, gate, story });
    // Only the newest request may write: an older answer could describe older files.
    if (request !== latest.current) return;
    setLoading(false);
    if (result.ok) {
      setEvidence(result.value);
      setError(null);
    } else {
      setError(result.error);
    }
  }, [feature, gate, story]);

  useEffect(() => {
    void fetchEvidence();
    return () => {
      latest.current += 1;
    };
  }, [fetchEvidence, project]);

  return { evidence, error, loading, reload: fetchEvidence };
}
