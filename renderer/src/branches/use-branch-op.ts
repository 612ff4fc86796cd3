/**
 * One long branch operation as a dialog or panel runs it: its opId, whether it runs, its
 * progress (from `branches:progressed`), its outcome, and Cancel. Leaving the component cancels
 * what still runs, so nothing keeps working for a view nobody sees.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { BranchProgress } from '../../../shared/branches';
import type { AppError, Result } from '../../../shared/result';
import { cancelBranchOp, forgetProgress, newOpId } from '../store/branch-actions';
import { useStore } from '../store/store';

const NO_PROGRESS: readonly BranchProgress[] = [];

export interface BranchOp<T> {
  readonly running: boolean;
  readonly cancelling: boolean;
  readonly error: AppError | null;
  readonly value: T | null;
  readonly progress: readonly BranchProgress[];
  start(call: (opId: string) => Promise<Result<T>>): Promise<Result<T>>;
  cancel(): void;
}

export function useBranchOp<T>(): BranchOp<T> {
  const [opId, setOpId] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const [error, setError] = useState<AppError | null>(null);
  const [value, setValue] = useState<T | null>(null);
  const progress = useStore((s) => (opId ? s.branchProgress[opId] : undefined)) ?? NO_PROGRESS;
  const live = useRef<{ opId: string | null; running: boolean }>({ opId: null, running: false });

  useEffect(
    () => () => {
      const { opId: current, running: stillRunning } = live.current;
      if (current && stillRunning) void cancelBranchOp(current);
      if (current) forgetProgress(current);
    },
    [],
  );

  const start = useCallback(async (call: (opId: string) => Promise<Result<T>>) => {
    if (live.current.opId) forgetProgress(live.current.opId);
    const id = newOpId();
    live.current = { opId: id, running: true };
    setOpId(id);
    setRunning(true);
    setCancelling(false);
    setError(null);
    setValue(null);
    const result = await call(id);
    if (live.current.opId !== id) return result;
    live.current = { opId: id, running: false };
    setRunning(false);
    setCancelling(false);
    if (result.ok) setValue(result.value);
    else setError(result.error);
    return result;
  }, []);

  const cancel = useCallback(() => {
    const { opId: current, running: stillRunning } = live.current;
    if (!current || !stillRunning) return;
    setCancelling(true);
    void cancelBranchOp(current);
  }, []);

  return { running, cancelling, error, value, progress, start, cancel };
}
