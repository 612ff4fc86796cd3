/** How the renderer's link to main is doing: booting, which host answers, the last failed action, who decides. */
import type { AppError } from '../../../shared/result';
import type { AppInfo } from '../../../shared/model';
import type { SliceCreator } from './store';

export type BootPhase = 'loading' | 'ready' | 'failed';

export interface SessionSlice {
  readonly boot: BootPhase;
  readonly bootError: AppError | null;
  readonly appInfo: AppInfo | null;
  /** The last failed workbench action (e.g. a reload); shown as a banner until dismissed. */
  readonly actionError: AppError | null;
  readonly reloading: boolean;
  /**
   * Who decides gates in this run ("Name <email>"), confirmed by the person once per run and
   * shown on the Approve button; null until confirmed.
   */
  readonly approver: string | null;
  /** True while the identity dialog asks who decides. */
  readonly identityPrompt: boolean;
  setBoot(boot: BootPhase, error?: AppError | null): void;
  setAppInfo(info: AppInfo | null): void;
  setActionError(error: AppError | null): void;
  setReloading(reloading: boolean): void;
  setApprover(approver: string | null): void;
  setIdentityPrompt(open: boolean): void;
}

export const createSessionSlice: SliceCreator<SessionSlice> = (set) => ({
  boot: 'loading',
  bootError: null,
  appInfo: null,
  actionError: null,
  reloading: false,
  approver: null,
  identityPrompt: false,
  setBoot: (boot, error = null) => set({ boot, bootError: error }),
  setAppInfo: (appInfo) => set({ appInfo }),
  setActionError: (actionError) => set({ actionError }),
  setReloading: (reloading) => set({ reloading }),
  setApprover: (approver) => set({ approver }),
  setIdentityPrompt: (identityPrompt) => set({ identityPrompt }),
});
