/** How an acceptance approved with exceptions reads, the same in the Inbox, `baton gates` and `baton status`. */
import type { GateExceptions } from './model';

/** `approved with exceptions: AC-2 unproven (T3 is escalated); reason: "ship the rest"` */
export const exceptionsLine = (e: GateExceptions): string =>
  `approved with exceptions: ${e.acs.map(({ ac, why }) => `${ac} unproven (${why})`).join('; ')}; reason: "${e.reason}"`;
