/**
 * Desktop notifications when Baton needs you (issue 35, part 4), through the browser's
 * Notifications API: each Inbox entry that becomes decidable while this window is in the
 * background or without focus (a gate ready, an item escalated, a run blocked, an amendment) is one
 * notification, tagged by project and entry so a repeat replaces rather than stacks; a click brings
 * the window forward with that entry open in the Inbox. Nothing shows while you are looking at the
 * window (the Inbox's badge and the title say it), nothing for what was already waiting when the
 * project opened, and nothing unless you turned them on (notify-toggle.tsx) and the browser allows it.
 */
import { useEffect, useRef } from 'react';
import { inboxEntries } from '../lib/inbox-model';
import { hrefFor } from '../store/hash-route';
import { useStore } from '../store/store';
import { decidableKeys, newlyDecidable, runEnded } from './needs-you';

const PREFERENCE = 'baton.notifications';

/** What the browser allows: 'unsupported' where there is no Notifications API. */
export const permission = (): NotificationPermission | 'unsupported' => (typeof Notification === 'undefined' ? 'unsupported' : Notification.permission);

/** Turned on by the person, in this browser: off until then, whatever the browser allows. */
export const turnedOn = (): boolean => localStorage.getItem(PREFERENCE) === 'on';
export const setTurnedOn = (on: boolean): void => (on ? localStorage.setItem(PREFERENCE, 'on') : localStorage.removeItem(PREFERENCE));

const looking = (): boolean => document.visibilityState === 'visible' && document.hasFocus();

export function useNotifications(): void {
  const project = useStore((s) => s.project);
  const selectInbox = useStore((s) => s.selectInbox);
  const seen = useRef<{ root: string; keys: Set<string> } | null>(null);
  useEffect(() => {
    if (!project || project.readOnly) {
      seen.current = null;
      return;
    }
    const entries = inboxEntries(project);
    const before = seen.current?.root === project.root ? seen.current.keys : null;
    seen.current = { root: project.root, keys: decidableKeys(entries) };
    if (before === null || permission() !== 'granted' || !turnedOn() || looking()) return;
    for (const need of newlyDecidable(before, entries)) {
      const shown = new Notification(need.title, { body: need.body, tag: `${project.root}#${need.key}` });
      shown.onclick = () => {
        window.focus();
        selectInbox(need.entry.ref);
        window.location.hash = hrefFor('inbox');
        shown.close();
      };
    }
  }, [project, selectInbox]);

  // A run this window follows that ends done or failed: the board (or the live run panel) says the rest.
  const run = useStore((s) => s.run);
  const setRunPanelOpen = useStore((s) => s.setRunPanelOpen);
  const previous = useRef(run);
  useEffect(() => {
    const before = previous.current;
    previous.current = run;
    const ended = runEnded(before, run);
    if (!ended || !project || permission() !== 'granted' || !turnedOn() || looking()) return;
    const shown = new Notification(ended.title, { body: ended.body, tag: `${project.root}#run` });
    shown.onclick = () => {
      window.focus();
      window.location.hash = hrefFor('board');
      if (run.outcome === 'failed') setRunPanelOpen(true);
      shown.close();
    };
  }, [run, project, setRunPanelOpen]);
}
