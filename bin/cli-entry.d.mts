/** Which code `baton` runs (bin/cli-entry.mjs). */
export function cliEntry(root: string, env?: Record<string, string | undefined>): 'bundle' | 'source';
/** After `ms`, names what still holds the event loop on `err` and exits with process.exitCode. */
export declare function exitWhenLingering(ms?: number, err?: (text: string) => void): void;
