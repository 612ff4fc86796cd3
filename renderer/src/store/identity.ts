/**
 * Who decides: asked once per run in a dialog prefilled from git, confirmed by the person, then
 * kept in the session slice. A decision awaits `ensureIdentity()`; the dialog settles it.
 */
import { api } from '../../client';
import { useStore } from './store';

let settle: ((approver: string | null) => void) | null = null;

/** Opens the identity dialog; resolves with the confirmed identity, or null when cancelled. */
export function askIdentity(): Promise<string | null> {
  settle?.(null);
  useStore.getState().setIdentityPrompt(true);
  return new Promise((resolve) => {
    settle = resolve;
  });
}

/** The confirmed identity, asking for it first when this run has none yet. */
export async function ensureIdentity(): Promise<string | null> {
  return useStore.getState().approver ?? askIdentity();
}

/** Called by the dialog: a confirmed identity, or null when the person cancelled. */
export function settleIdentity(approver: string | null): void {
  const state = useStore.getState();
  const trimmed = approver?.trim() ?? '';
  if (trimmed) state.setApprover(trimmed);
  state.setIdentityPrompt(false);
  const done = settle;
  settle = null;
  done?.(trimmed || null);
}

/** The identity git suggests (user.name <user.email>), or '' when it has none. */
export async function suggestedIdentity(): Promise<string> {
  const result = await api.invoke('identity:default', {});
  return result.ok ? (result.value.approver ?? '') : '';
}
