/**
 * Glob patterns for test globs and write scopes (`.baton/project.json`), matched against
 * `/`-separated paths relative to the worktree: `**` any number of folders, `*` and `?` within
 * one segment, `{a,b}` alternatives, `[abc]` classes. A pattern ending in `/**` also matches the
 * folder's contents at any depth; a leading `**\/` matches at the root too. Dotfiles match `*`
 * (scopes must cover `.env` too). Pure: used by main and shown by the renderer.
 */

const cache = new Map<string, RegExp>();

export function globToRegExp(pattern: string): RegExp {
  const cached = cache.get(pattern);
  if (cached) return cached;
  let re = '';
  let i = 0;
  let braces = 0;
  while (i < pattern.length) {
    const ch = pattern[i]!;
    if (ch === '*' && pattern[i + 1] === '*') {
      const atStart = i === 0 || pattern[i - 1] === '/';
      const atEnd = i + 2 === pattern.length || pattern[i + 2] === '/';
      if (atStart && atEnd) {
        // `**/` → zero or more whole folders; a trailing `**` → anything below.
        if (pattern[i + 2] === '/') {
          re += '(?:[^/]+/)*';
          i += 3;
        } else {
          re += '.*';
          i += 2;
        }
        continue;
      }
      re += '[^/]*';
      i += 2;
      continue;
    }
    if (ch === '*') re += '[^/]*';
    else if (ch === '?') re += '[^/]';
    else if (ch === '{') {
      braces += 1;
      re += '(?:';
    } else if (ch === '}' && braces > 0) {
      braces -= 1;
      re += ')';
    } else if (ch === ',' && braces > 0) re += '|';
    else if (ch === '[') {
      const end = pattern.indexOf(']', i + 1);
      if (end === -1) re += '\\[';
      else {
        re += `[${pattern
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else re += ch.replace(/[.+^$()|\\\]]/g, '\\$&');
    i += 1;
  }
  const compiled = new RegExp(`^${re}$`);
  cache.set(pattern, compiled);
  return compiled;
}

/** True when `path` (relative, `/`-separated) matches any of the patterns. */
export function matchesAny(path: string, patterns: readonly string[]): boolean {
  const clean = path.replace(/\\/g, '/').replace(/^\.\//, '');
  return patterns.some((p) => globToRegExp(p.replace(/^\.\//, '')).test(clean));
}
