/**
 * The environment of anything an agent or a test run starts: an allow-list, never Baton's own
 * environment. API keys, tokens, database admin URLs and Baton's own variables stay out unless the
 * project names them (`passEnv` in .baton/project.json); HOME is a private folder, so nothing reads
 * the person's configuration (Baton's signing key lives there).
 */

/** What a toolchain needs to find itself and speak the person's language. */
const ALWAYS = ['PATH', 'LANG', 'LANGUAGE', 'LC_ALL', 'LC_CTYPE', 'LC_MESSAGES', 'TZ', 'USER', 'LOGNAME', 'SHELL', 'TERM'];

export interface ChildEnvOptions {
  /** The private HOME (inside the sandbox: under its private /tmp). */
  readonly home: string;
  /** Variables the project asks to pass through (`passEnv`), by name. */
  readonly pass?: readonly string[];
  /** What this command needs on top: DATABASE_URL and the like. */
  readonly extra?: Readonly<Record<string, string>>;
  /** Where the variables come from; default process.env. */
  readonly from?: NodeJS.ProcessEnv;
}

export function childEnv(options: ChildEnvOptions): NodeJS.ProcessEnv {
  const from = options.from ?? process.env;
  const out: NodeJS.ProcessEnv = {};
  for (const name of [...ALWAYS, ...(options.pass ?? [])]) {
    const value = from[name];
    if (value !== undefined) out[name] = value;
  }
  return { ...out, HOME: options.home, CI: '1', FORCE_COLOR: '0', NO_COLOR: '1', ...options.extra };
}
