/**
 * The docs are checked like code: README.md stays a short front door with the Quick start first;
 * every relative link and `#anchor` in README.md and docs/ resolves; every command the CLI registers
 * (and every option its usage line names) is in docs/cli.md; and every key of the project settings
 * schema is in docs/configuration.md. The commands and keys come from the code, never from a list
 * written here, so a new command or setting fails this test until it is documented.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { agentConfigSchema } from '../shared/agents';
import { USAGE } from './cli/main';
import { projectSettingsSchema } from './project/settings';

const ROOT = path.resolve(import.meta.dirname, '..');
const DOCS = path.join(ROOT, 'docs');
const read = (file: string): string => readFileSync(file, 'utf8');
const docPages = (): string[] =>
  readdirSync(DOCS)
    .filter((f) => f.endsWith('.md'))
    .sort();
const MARKDOWN = [path.join(ROOT, 'README.md'), ...docPages().map((f) => path.join(DOCS, f))];

/** The text outside fenced code blocks (their lines blanked, so line numbers still hold). */
function prose(text: string): string {
  let fenced = false;
  return text
    .split('\n')
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        fenced = !fenced;
        return '';
      }
      return fenced ? '' : line;
    })
    .join('\n');
}

/** GitHub's anchor for a heading: its text, lowercased, punctuation dropped, spaces to `-`. */
function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** Every anchor a page has, duplicates numbered as GitHub numbers them (`x`, `x-1`, `x-2`). */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of prose(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Every inline link target outside code (fenced blocks and code spans), with its line. */
function links(text: string): Array<{ target: string; line: number }> {
  const body = prose(text).replace(/`[^`\n]*`/g, (span) => ' '.repeat(span.length));
  const out: Array<{ target: string; line: number }> = [];
  for (const m of body.matchAll(/\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    out.push({ target: m[1]!, line: body.slice(0, m.index).split('\n').length });
  }
  return out;
}

/** What is wrong with one link from `from`, or null when it resolves. */
function brokenLink(from: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null; // https:, mailto: — not ours to check
  const [file = '', anchor] = target.split('#', 2) as [string, string | undefined];
  const to = file === '' ? from : path.resolve(path.dirname(from), decodeURIComponent(file));
  if (!existsSync(to)) return `${target}: no such file`;
  if (anchor === undefined || anchor === '') return null;
  if (!to.endsWith('.md')) return `${target}: an anchor into a file that is not markdown`;
  return anchors(read(to)).has(decodeURIComponent(anchor)) ? null : `${target}: no heading with that anchor in ${path.relative(ROOT, to)}`;
}

/** The commands `baton --help` lists: each usage line, straight from the command table. */
function usageLines(): string[] {
  const commands = USAGE.split('Commands:\n')[1]!.split('\n\nOptions:')[0]!;
  return commands
    .split('\n')
    .filter((l) => /^ {2}\S/.test(l))
    .map((l) => l.trim());
}

/**
 * What a command's usage line asks for right after its name: a bare word or words are subcommands
 * (`feature new`, `amend list|propose|approve|reject`), each documented as `baton <name> <sub>`;
 * `<a|b>` are the choices of an argument (`<dir|bundle>`, `branch <create|delete|…>`), each named
 * in the command's section.
 */
function afterName(usage: string): { subcommands: string[]; choices: string[] } {
  const second = usage.split(' ')[1] ?? '';
  if (/^[a-z][a-z-]*(\|[a-z][a-z-]*)*$/.test(second)) return { subcommands: second.split('|'), choices: [] };
  const choices = /^<([^>]*\|[^>]*)>$/.exec(second)?.[1]?.split('|') ?? [];
  return { subcommands: [], choices };
}

/** The part of docs/cli.md under the `### \`baton <name>…\`` heading, up to the next heading. */
function cliSection(cli: string, name: string): string | null {
  const lines = cli.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`### \`baton ${name}\``) || l.startsWith(`### \`baton ${name} `));
  if (start < 0) return null;
  const end = lines.findIndex((l, i) => i > start && /^#{1,3} /.test(l));
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

/** The object schema inside optional and nullable wrappers, or null when it is not an object. */
function objectShape(schema: unknown): Record<string, unknown> | null {
  let s = schema;
  while (s instanceof z.ZodOptional || s instanceof z.ZodNullable) s = s.unwrap();
  return s instanceof z.ZodObject ? (s.shape as Record<string, unknown>) : null;
}

describe('README.md', () => {
  const readme = read(path.join(ROOT, 'README.md'));

  it('is at most 300 lines, and its first section is the Quick start', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
    expect(prose(readme).match(/^## .*$/m)?.[0]).toBe('## Quick start');
  });

  it('names the test command and CI, and links every page of docs/', () => {
    expect(readme).toContain('npm test');
    expect(readme).toContain('bash .ci/run');
    const linked = new Set(links(readme).map((l) => l.target.split('#')[0]));
    const index = new Set(links(read(path.join(DOCS, 'README.md'))).map((l) => l.target.split('#')[0]));
    for (const page of docPages()) {
      expect(linked, `README.md links docs/${page}`).toContain(`docs/${page}`);
      if (page !== 'README.md') expect(index, `docs/README.md links ${page}`).toContain(page);
    }
  });
});

describe('README.md and docs/', () => {
  it.each(MARKDOWN.map((f) => [path.relative(ROOT, f), f]))('%s: every relative link and anchor resolves', (_name, file) => {
    const broken = links(read(file))
      .map(({ target, line }) => ({ line, problem: brokenLink(file, target) }))
      .filter((l) => l.problem !== null)
      .map((l) => `line ${l.line}: ${l.problem}`);
    expect(broken).toEqual([]);
  });

  it.each(MARKDOWN.map((f) => [path.relative(ROOT, f), f]))('%s: no line is longer than 400 characters', (_name, file) => {
    const long = read(file)
      .split('\n')
      .map((l, i) => ({ line: i + 1, length: l.length }))
      .filter((l) => l.length > 400);
    expect(long).toEqual([]);
  });
});

describe('docs/cli.md', () => {
  const cli = read(path.join(DOCS, 'cli.md'));

  it('has every command the CLI registers, with every option its usage line names', () => {
    const usages = usageLines();
    expect(usages.length).toBeGreaterThan(20);
    const missing: string[] = [];
    for (const usage of usages) {
      const name = usage.split(' ')[0]!;
      const { subcommands, choices } = afterName(usage);
      if (!cli.includes(`baton ${name}`)) missing.push(`baton ${name}`);
      for (const sub of subcommands) if (!cli.includes(`baton ${name} ${sub}`)) missing.push(`baton ${name} ${sub}`);
      const section = cliSection(cli, name);
      if (section === null) {
        missing.push(`a "### \`baton ${name}\`" section`);
        continue;
      }
      for (const choice of choices) if (!new RegExp(`\\b${choice}\\b`).test(section)) missing.push(`${choice} of baton ${name}`);
      for (const option of new Set(usage.match(/--[a-z][a-z-]*/g) ?? [])) if (!section.includes(option)) missing.push(`${option} of baton ${name}`);
    }
    expect(missing).toEqual([]);
  });

  it('has the options every command takes', () => {
    const global = USAGE.split('Options:\n')[1]!.match(/--[a-z][a-z-]*/g) ?? [];
    expect(global.length).toBeGreaterThan(0);
    for (const option of global) expect(cli, option).toContain(option);
  });
});

describe('docs/configuration.md', () => {
  const config = read(path.join(DOCS, 'configuration.md'));
  const spans = [...prose(config).matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
  const inCode = (key: string): boolean => spans.some((s) => new RegExp(`(^|[^A-Za-z0-9_])${key}($|[^A-Za-z0-9_])`).test(s));

  it('has every top-level key of the project settings schema as `key`', () => {
    const keys = Object.keys(projectSettingsSchema.shape);
    expect(keys.length).toBeGreaterThan(20);
    expect(keys.filter((key) => !spans.includes(key))).toEqual([]);
  });

  it("has every key of the settings' objects (deploy, promote, mutation, branches, …) and of an agent's", () => {
    const missing: string[] = [];
    const walk = (shape: Record<string, unknown>, where: string, depth: number): void => {
      for (const [key, schema] of Object.entries(shape)) {
        if (depth > 0 && !inCode(key)) missing.push(`${where}${key}`);
        const inner = objectShape(schema);
        if (inner && depth < 2) walk(inner, `${where}${key}.`, depth + 1);
      }
    };
    walk(projectSettingsSchema.shape, '', 0);
    walk(agentConfigSchema.shape, 'agents.<role>.', 1);
    expect(missing).toEqual([]);
  });
});
