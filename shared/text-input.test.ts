import { describe, expect, it } from 'vitest';
import { emailOf } from './approvers';
import { channels } from './contract';
import { MAX_NAME_LENGTH, MAX_NOTE_LENGTH, nameProblem, noteProblem, recordedNote, textProblem, visible } from './text-input';

const HASH = 'a'.repeat(64);

describe('what Baton accepts as a name', () => {
  it('accepts an ordinary name, with or without an email, and any script', () => {
    expect(nameProblem('Ada Lovelace <ada@example.com>')).toBeNull();
    expect(nameProblem('  Zoë Ångström-李  ')).toBeNull();
    expect(nameProblem('x'.repeat(MAX_NAME_LENGTH))).toBeNull();
  });

  it('refuses an escape sequence, a line break, a tab, DEL, C1 controls and bidi overrides, saying which and where', () => {
    expect(nameProblem('Mallory\u001b[31m\nx')).toBe(
      'The approver name contains an escape character (U+001B) at character 8: a name is one line of plain text, with no control characters, line breaks or bidirectional overrides. Type it again as plain text, e.g. "Ada Lovelace <ada@example.com>".',
    );
    expect(nameProblem('Ada\nLovelace')).toContain('a line break (U+000A) at character 4');
    expect(nameProblem('Ada\tLovelace')).toContain('a tab (U+0009)');
    expect(nameProblem('Ada\u007f')).toContain('a DEL character (U+007F)');
    expect(nameProblem('Ada\u009b31m')).toContain('a C1 control character (U+009B)');
    expect(nameProblem('Ada \u202eecalevol')).toContain('a bidirectional override (U+202E)');
    expect(nameProblem('Ada \u2066x\u2069')).toContain('a bidirectional isolate (U+2066)');
    expect(nameProblem('Ada\u2028Lovelace')).toContain('a line separator (U+2028)');
    expect(nameProblem('A\u0000')).toContain('a NUL character (U+0000)');
  });

  it('judges the name as recorded: surrounding white space is dropped first', () => {
    expect(nameProblem('\n Ada Lovelace \t\n')).toBeNull();
  });

  it('refuses a name longer than the limit, counting characters, not UTF-16 units', () => {
    expect(nameProblem('x'.repeat(MAX_NAME_LENGTH + 1), 'The approver name (--approver)')).toBe(
      `The approver name (--approver) is ${MAX_NAME_LENGTH + 1} characters long; at most ${MAX_NAME_LENGTH} are accepted. Give a shorter name, e.g. "Name <email>".`,
    );
    expect(nameProblem('😀'.repeat(MAX_NAME_LENGTH))).toBeNull();
  });
});

describe('what Baton accepts as a reason or note', () => {
  it('accepts several lines and tabs', () => {
    expect(noteProblem('First line.\n\n\tIndented detail.')).toBeNull();
    expect(noteProblem('x'.repeat(MAX_NOTE_LENGTH))).toBeNull();
  });

  it('refuses other C0 controls (a carriage return too), C1 and bidi controls', () => {
    expect(noteProblem('ok\rforged')).toContain('The reason contains a carriage return (U+000D) at character 3');
    expect(noteProblem('red \u001b[31m')).toContain('an escape character (U+001B)');
    expect(noteProblem('x\u0085y')).toContain('a C1 control character (U+0085)');
    expect(textProblem('a\u202db', 'note', 'The note')).toContain('The note contains a bidirectional override (U+202D)');
  });

  it('refuses more than the limit, and says to shorten it', () => {
    expect(noteProblem('x'.repeat(5000))).toBe(
      `The reason is 5000 characters long; at most ${MAX_NOTE_LENGTH} are accepted. Shorten it, and put the details in a file the text refers to.`,
    );
  });
});

describe('repeating untrusted text', () => {
  it('shows every control and bidi character as its escape', () => {
    expect(visible('Mallory\u001b[31m\nx\u202e')).toBe('Mallory\\u001b[31m\\u000ax\\u202e');
    expect(visible('plain <a@b.c>')).toBe('plain <a@b.c>');
  });

  it('an approver with a control character names no email for the policy', () => {
    expect(emailOf('Eve\u001b[0m <ada@example.com>')).toBeNull();
  });
});

describe("recording a program's text (a failing test's message)", () => {
  it('drops colour codes, makes line ends \\n, keeps tabs and escapes every other control and bidi character', () => {
    expect(recordedNote('\u001b[31mexpected\u001b[39m 5\r\n\tgot \u001b]0;title\u0007x\u0000\u202e\r\n')).toBe('expected 5\n\tgot x\\u0000\\u202e');
    expect(noteProblem(recordedNote('a\u0007b\u001bc')!)).toBeNull();
  });

  it('is cut at its bound with an ellipsis, counting characters, and is null when nothing is left', () => {
    expect(recordedNote('😀'.repeat(10), 4)).toBe('😀😀😀😀…');
    expect(recordedNote('short', 4000)).toBe('short');
    expect(recordedNote(' \u001b[0m \n ')).toBeNull();
  });
});

describe('the contract applies the same rules to every host', () => {
  const approve = channels['gates:approve'].request;
  const issues = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
    result.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];

  it('refuses __proto__, constructor and prototype in expect, even as JSON own keys zod would drop', () => {
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      const payload: unknown = JSON.parse(`{"feature":"F-1","gate":"spec","approver":"Ada","expect":{"${key}":"${HASH}","feature.json":"${HASH}"}}`);
      const result = approve.safeParse(payload);
      expect(result.success, key).toBe(false);
      expect(issues(result)[0]).toMatch(/^expect: names __proto__, constructor or prototype/);
    }
    const restore = channels['gates:restore'].request.safeParse(JSON.parse(`{"feature":"F-1","gate":"spec","approver":"Ada","expect":{"__proto__":null}}`));
    expect(restore.success).toBe(false);
  });

  it('refuses a controlled approver, an overlong reason and a controlled note; accepts ordinary words', () => {
    expect(issues(approve.safeParse({ feature: 'F-1', gate: 'spec', approver: 'Mallory\u001b[31m\nx', expect: {} }))[0]).toMatch(
      /^approver: The approver name contains an escape/,
    );
    const reject = channels['gates:reject'].request.safeParse({ feature: 'F-1', gate: 'spec', approver: 'Ada', reason: 'x'.repeat(5000) });
    expect(issues(reject)).toEqual([expect.stringMatching(/^reason: The reason is 5000 characters long/)]);
    const escalation = channels['escalations:decide'].request.safeParse({ feature: 'F-1', item: 'T1', decision: 'skip', note: 'a\u001bb', approver: 'Ada' });
    expect(issues(escalation)).toEqual([expect.stringMatching(/^note: The note contains an escape character/)]);
    const ok = approve.safeParse({ feature: 'F-1', gate: 'spec', approver: ' Ada <a@b.c> ', expect: { 'feature.json': HASH }, comment: 'fine\n\tall of it' });
    expect(ok.success && ok.data).toMatchObject({ approver: 'Ada <a@b.c>', comment: 'fine\n\tall of it' });
  });
});
