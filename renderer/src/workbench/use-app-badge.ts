/**
 * The desktop app puts the title's count (the decisions waiting, window-title.ts) on its icon: the
 * dock badge on macOS, launchers that show counts on Linux (`app:badge`). The browser host has no
 * icon of its own and is not asked.
 */
import { useEffect, useMemo } from 'react';
import { api } from '../../client';
import { countPending } from '../lib/inbox-model';
import { useStore } from '../store/store';

export function useAppBadge(): void {
  const project = useStore((s) => s.project);
  const desktop = useStore((s) => s.appInfo?.host === 'electron');
  const waiting = useMemo(() => countPending(project), [project]);
  useEffect(() => {
    if (desktop) void api.invoke('app:badge', { count: Math.min(waiting, 9999) });
  }, [desktop, waiting]);
}
