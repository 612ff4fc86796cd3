/**
 * The window's title says when Baton needs you: the decisions waiting in the Inbox (gates ready to
 * decide, escalations), counted as the Inbox's badge counts them, lead the title — "(2) shop —
 * Baton" — so a person in another window or tab sees it in the taskbar or the tab strip. A
 * read-only project counts nothing: nothing can be decided there. The desktop app also puts the
 * count on its icon (use-app-badge.ts).
 */
import { useEffect, useMemo } from 'react';
import { countPending } from '../lib/inbox-model';
import { useStore } from '../store/store';

export function windowTitle(project: string | null, waiting: number): string {
  const base = project ? `${project} — Baton` : 'Baton';
  return waiting > 0 ? `(${waiting}) ${base}` : base;
}

/** Keeps `document.title` to windowTitle of the open project. */
export function useWindowTitle(): void {
  const project = useStore((s) => s.project);
  const waiting = useMemo(() => countPending(project), [project]);
  const title = windowTitle(project?.name || null, waiting);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
