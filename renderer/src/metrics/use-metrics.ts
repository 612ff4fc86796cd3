/** The Metrics screen's answer from main (`metrics:get`), asked again whenever the project view changes. */
import { useEffect, useRef, useState } from 'react';
import type { MetricsScreen } from '../../../shared/metrics/screen';
import type { AppError } from '../../../shared/result';
import { api } from '../../client';
import { useStore } from '../store/store';

export interface MetricsState {
  readonly metrics: MetricsScreen | null;
  readonly error: AppError | null;
  readonly loading: boolean;
}

export function useMetrics(): MetricsState {
  const project = useStore((s) => s.project);
  const [state, setState] = useState<MetricsState>({ metrics: null, error: null, loading: true });
  // An answer that arrives after a newer question belongs to an older ledger.
  const generation = useRef(0);
  useEffect(() => {
    const mine = ++generation.current;
    void api.invoke('metrics:get', {}).then((result) => {
      if (mine !== generation.current) return;
      setState(result.ok ? { metrics: result.value, error: null, loading: false } : { metrics: null, error: result.error, loading: false });
    });
  }, [project]);
  return state;
}
