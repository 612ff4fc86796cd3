/** Which code `baton` runs (bin/cli-entry.mjs). */
export function cliEntry(root: string, env?: Record<string, string | undefined>): 'bundle' | 'source';
