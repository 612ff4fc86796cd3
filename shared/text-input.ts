/**
 * What Baton accepts as a person's words where they are recorded and shown again: approver names,
 * and the reasons and notes of decisions (reject and withdraw reasons, approval notes, amendment and
 * escalation notes). They go into the ledger for good and come back on terminals and screens, so
 * nothing in them may steer a terminal (ESC sequences), forge a line (a line break in a name) or
 * reorder what a reader sees (bidirectional overrides). The contract's schemas and the CLI both
 * judge with this one function, so every host refuses the same words in the same terms.
 *
 * - A name is one line of at most MAX_NAME_LENGTH characters: no C0 control (line feed and tab
 *   included), no DEL, no C1 control (U+0080–U+009F), no line or paragraph separator, no bidi
 *   embedding, override or isolate (U+202A–U+202E, U+2066–U+2069).
 * - A reason or note has at most MAX_NOTE_LENGTH characters and may span lines: line feeds and tabs
 *   are fine; every other C0 control (carriage return included), DEL, C1 and bidi control is not.
 * - A feature's title follows the name rules (at most MAX_TITLE_LENGTH), its request the note rules
 *   (at most MAX_REQUEST_LENGTH).
 *
 * Leading and trailing white space is dropped before a name or note is recorded, so it is not judged.
 * Lengths count Unicode code points. Pure: used by shared/contract.ts, main and the CLI.
 */

/** The longest approver name accepted, in characters. */
export const MAX_NAME_LENGTH = 100;
/** The longest reason or note accepted, in characters. */
export const MAX_NOTE_LENGTH = 4000;

/** The longest feature title accepted, in characters. */
export const MAX_TITLE_LENGTH = 200;
/** The longest feature request accepted, in characters (one paragraph; the rest goes in attachments). */
export const MAX_REQUEST_LENGTH = 8000;

/**
 * `name`: one line (an approver); `title`: one line (a feature's title); `note`: free text that may
 * span lines (a reason, a note); `request`: a feature's request paragraph, judged as a note.
 */
export type TextKind = 'name' | 'title' | 'note' | 'request';

const ONE_LINE: ReadonlySet<TextKind> = new Set(['name', 'title']);
const MAX_LENGTH: Readonly<Record<TextKind, number>> = { name: MAX_NAME_LENGTH, title: MAX_TITLE_LENGTH, note: MAX_NOTE_LENGTH, request: MAX_REQUEST_LENGTH };

/* eslint-disable no-control-regex -- these patterns exist to find control characters */
const NAME_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const NOTE_FORBIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const ANY_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/* eslint-enable no-control-regex */

const NAMED: Readonly<Record<number, string>> = {
  0x00: 'a NUL character',
  0x09: 'a tab',
  0x0a: 'a line break',
  0x0d: 'a carriage return',
  0x1b: 'an escape character',
  0x7f: 'a DEL character',
  0x2028: 'a line separator',
  0x2029: 'a paragraph separator',
};

const hex = (code: number): string => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

/** The character in words, with its code point: never the character itself, which may be what harms. */
const describe = (ch: string): string => {
  const code = ch.codePointAt(0)!;
  const words =
    NAMED[code] ??
    (code >= 0x202a && code <= 0x202e
      ? 'a bidirectional override'
      : code >= 0x2066
        ? 'a bidirectional isolate'
        : code >= 0x80
          ? 'a C1 control character'
          : 'a control character');
  return `${words} (${hex(code)})`;
};

/**
 * Why `value` cannot be recorded as `what` (e.g. "The approver name", "The reason (--reason)"), or
 * null when it can. The message says what is wrong, where, and what to do; it never repeats the
 * offending character.
 */
export function textProblem(value: string, kind: TextKind, what: string): string | null {
  const text = value.trim();
  const oneLine = ONE_LINE.has(kind);
  const bad = (oneLine ? NAME_FORBIDDEN : NOTE_FORBIDDEN).exec(text);
  if (bad) {
    const at = [...text.slice(0, bad.index)].length + 1;
    const rule = oneLine
      ? `a ${kind} is one line of plain text, with no control characters, line breaks or bidirectional overrides`
      : `a ${kind === 'request' ? 'request' : 'reason or note'} may have line breaks and tabs, but no other control characters and no bidirectional overrides`;
    const example = kind === 'name' ? ', e.g. "Ada Lovelace <ada@example.com>"' : kind === 'title' ? ', e.g. "Gift cards"' : '';
    return `${what} contains ${describe(bad[0])} at character ${at}: ${rule}. Type it again as plain text${example}.`;
  }
  const max = MAX_LENGTH[kind];
  const length = [...text].length;
  if (length > max) {
    const advice =
      kind === 'name'
        ? 'Give a shorter name, e.g. "Name <email>"'
        : kind === 'title'
          ? 'Give the feature a shorter name'
          : kind === 'request'
            ? 'Keep the request to a paragraph and attach the rest'
            : 'Shorten it, and put the details in a file the text refers to';
    return `${what} is ${length} characters long; at most ${max} are accepted. ${advice}.`;
  }
  return null;
}

/** An approver name's problem, or null. */
export const nameProblem = (value: string, what = 'The approver name'): string | null => textProblem(value, 'name', what);

/** A reason's or note's problem, or null. */
export const noteProblem = (value: string, what = 'The reason'): string | null => textProblem(value, 'note', what);

/** True when `value` holds a character no name may hold (checked before trimming). */
export const hasNameControl = (value: string): boolean => NAME_FORBIDDEN.test(value);

/**
 * Untrusted text made safe to repeat in a message: every control, separator and bidi character is
 * shown as its escape (`\u001b`), so echoing what a person typed can never steer a terminal.
 */
export const visible = (value: string): string => value.replace(ANY_FORBIDDEN, (ch) => `\\u${ch.codePointAt(0)!.toString(16).padStart(4, '0')}`);

/* eslint-disable no-control-regex -- these patterns exist to find control characters */
/** A terminal's colour and cursor sequences (CSI and OSC): a runner's decoration, not its words. */
const TERMINAL_SEQUENCE = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?/g;
const NOTE_FORBIDDEN_ALL = new RegExp(NOTE_FORBIDDEN.source, 'g');
/* eslint-enable no-control-regex */

/**
 * Text a program wrote (a failing test's message), made fit to record as a note is: colour
 * sequences dropped, line ends made `\n`, every other control and bidi character shown as its
 * escape, trimmed, and cut at `max` characters (code points) with an ellipsis. Null when nothing is left.
 */
export const recordedNote = (value: string, max: number = MAX_NOTE_LENGTH): string | null => {
  const text = value
    .replace(TERMINAL_SEQUENCE, '')
    .replace(/\r\n?/g, '\n')
    .replace(NOTE_FORBIDDEN_ALL, (ch) => `\\u${ch.codePointAt(0)!.toString(16).padStart(4, '0')}`)
    .trim();
  if (text === '') return null;
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max).join('').trimEnd()}…` : text;
};
