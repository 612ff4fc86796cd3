/** The CLI's exit codes, the same for every command. */
export const EXIT = { ok: 0, problems: 1, usage: 2 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A wrong invocation: the message says what is wrong and how to call it instead. */
export class UsageError extends Error {}
