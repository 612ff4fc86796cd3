/** The browser host's per-client figures, light enough for `baton serve` to import before it starts the host. */

/** Connections one token may hold: its own longest-idle one makes room for its next (connections.ts). */
export const MAX_PER_CLIENT = 8;

/** The owner's client name (a person's name is never this: `baton serve --person` refuses it). */
export const OWNER = 'owner';
