/** What only the desktop host gives the Workbench: the other hosts leave these out, and the channels say so. */
export interface DesktopHooks {
  /** Asks the person for a folder (`project:pick`). */
  readonly pickFolder?: () => Promise<string | null>;
  /** Puts the "needs you" count on the app's icon (`app:badge`; 0 clears it); true if the platform shows it. */
  readonly setBadge?: (count: number) => boolean;
}
