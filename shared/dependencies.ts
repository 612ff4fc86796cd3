/**
 * Dependency requests: a Driver that needs a package says so on a line of its own —
 * `BATON-DEPENDENCY: <name>[@<version or range>] [--dev]` — and the orchestrator installs it with
 * the project's package manager (electron/engine/dependencies.ts). Only registry packages by name
 * and a version, range or tag: never a URL, a path, a git reference or an alias, which would let
 * an agent install code from anywhere.
 */
import { z } from 'zod';

export const DEPENDENCY_LINE = 'BATON-DEPENDENCY:';

/** npm's rules for a package name: lower case, URL-safe, an optional @scope/. */
const NAME = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;
/** A version, a range (`^1.2.0`, `>=2 <3`, `1.x || 2.x`) or a dist-tag (`latest`, `next`). */
const SPEC = /^[A-Za-z0-9.^~<>=|*+ -]{1,100}$/;

export const dependencyRequestSchema = z.strictObject({
  name: z.string().regex(NAME).max(214),
  spec: z.string().regex(SPEC),
  dev: z.boolean(),
});
export type DependencyRequest = z.infer<typeof dependencyRequestSchema>;

export interface RefusedRequest {
  /** The line as the agent wrote it (trimmed, at most 200 characters). */
  readonly line: string;
  readonly why: string;
}

/** Every request line in what an agent said, valid ones parsed, the others with the reason. */
export function dependencyRequestsIn(text: string): { requests: DependencyRequest[]; refused: RefusedRequest[] } {
  const requests: DependencyRequest[] = [];
  const refused: RefusedRequest[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const at = raw.indexOf(DEPENDENCY_LINE);
    if (at < 0 || raw.slice(0, at).trim() !== '') continue;
    const line = raw.trim().slice(0, 200);
    const words = raw
      .slice(at + DEPENDENCY_LINE.length)
      .trim()
      .split(/\s+/)
      .filter(Boolean);
    const dev = words.includes('--dev');
    const rest = words.filter((w) => w !== '--dev');
    if (rest.length !== 1) {
      refused.push({ line, why: `expected one package, as ${DEPENDENCY_LINE} name@^1.2.0 (optionally --dev)` });
      continue;
    }
    const word = rest[0]!;
    const split = word.indexOf('@', 1);
    const name = split < 0 ? word : word.slice(0, split);
    const spec = split < 0 ? 'latest' : word.slice(split + 1);
    if (!NAME.test(name) || name.length > 214) refused.push({ line, why: `"${name}" is not a registry package name` });
    else if (!SPEC.test(spec)) refused.push({ line, why: `"${spec}" is not a version, range or tag (URLs, paths, git and aliases are not installed)` });
    else if (!requests.some((r) => r.name === name)) requests.push({ name, spec, dev });
  }
  return { requests, refused };
}
