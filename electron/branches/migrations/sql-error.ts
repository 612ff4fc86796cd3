/**
 * Turns a Postgres error raised by a script (a migration file, a masking file) into what a person
 * needs: the line of the script, that line's text, and Postgres's own message.
 */

export interface SqlErrorInfo {
  /** Postgres's message with its SQLSTATE, e.g. `syntax error at or near "TABLEE" (SQLSTATE 42601)`. */
  readonly message: string;
  /** 1-based line of the script, when Postgres reported a position. */
  readonly line: number | null;
  /** The text of that line, trimmed, for the error message. */
  readonly excerpt: string | null;
}

export function describeSqlError(error: unknown, script: string): SqlErrorInfo {
  const e = error as { message?: string; code?: string; position?: string; detail?: string; hint?: string };
  const base = e.message ?? String(error);
  const extras = [e.detail ? `detail: ${e.detail}` : null, e.hint ? `hint: ${e.hint}` : null].filter(Boolean).join('; ');
  const message = `${base}${e.code ? ` (SQLSTATE ${e.code})` : ''}${extras ? `; ${extras}` : ''}`;
  // `position` counts characters from 1 across the whole text sent, which is the whole file.
  const position = Number(e.position);
  if (!Number.isInteger(position) || position < 1) return { message, line: null, excerpt: null };
  const before = script.slice(0, position - 1);
  const line = before.split('\n').length;
  const text = script.split('\n')[line - 1]?.trim() ?? '';
  return { message, line, excerpt: text.length > 120 ? `${text.slice(0, 119)}…` : text };
}

/** ` at line 3 (`CREATE TABLEE x`)` or nothing. */
export function whereInScript(info: SqlErrorInfo): string {
  if (info.line === null) return '';
  return ` at line ${info.line}${info.excerpt ? ` (\`${info.excerpt}\`)` : ''}`;
}
