import { describe, expect, it } from 'vitest';
import { changesOf, type TunableSettings } from '../../../shared/project-settings';
import { draftOf, fieldOf, rebased, settingsOf, webhookAfter, webhookChange, type ProjectDraft } from './project-draft';

const SETTINGS: TunableSettings = {
  gates: { acceptance: ['@po', 'bob@example.com'] },
  approverRoles: { po: ['ada@example.com'], ops: [] },
  repairBudget: 3,
  testTimeoutSeconds: 120,
  deploy: { start: 'node scripts/server.js', health: '/health', verify: 'node scripts/smoke.js', readySeconds: 30 },
  mutation: { enabled: false, minScore: 0.75 },
  smells: { stallFactor: 2.5 },
};

const edit = (draft: ProjectDraft, values: Record<string, string>): ProjectDraft => ({ ...draft, values: { ...draft.values, ...values } });

describe('the project settings draft', () => {
  it('turns settings into text and back unchanged', () => {
    const draft = draftOf(SETTINGS);
    expect(draft.values['gates.acceptance']).toBe('@po, bob@example.com');
    expect(draft.values['approverRoles']).toBe('po: ada@example.com\nops: ');
    expect(draft.values['mutation.enabled']).toBe('false');
    expect(draft.values['parallel']).toBe('');
    const back = settingsOf(draft);
    expect(back).toEqual({ settings: SETTINGS });
    expect(changesOf(SETTINGS, (back as { settings: TunableSettings }).settings)).toEqual({});
  });

  it('says which field cannot be read, and keeps what was typed', () => {
    const draft = edit(draftOf(SETTINGS), { repairBudget: 'three', parallel: '2.5', approverRoles: 'ada@example.com' });
    expect(settingsOf(draft)).toEqual({
      problems: [
        { path: 'approverRoles', message: '"ada@example.com" has no role name: write "po: ada@example.com"' },
        { path: 'repairBudget', message: 'must be a number' },
        { path: 'parallel', message: 'must be a whole number' },
      ],
    });
    expect(draft.values['repairBudget']).toBe('three');
  });

  it('leaves out what is emptied, so its default applies, and a group emptied entirely', () => {
    const draft = edit(draftOf(SETTINGS), {
      testTimeoutSeconds: '',
      'deploy.start': '',
      'deploy.health': '',
      'deploy.verify': '',
      'deploy.readySeconds': '',
      'gates.deploy': 'ops@example.com,\n @ops',
      'smells.gateWaitHours': ' 8 ',
    });
    const got = settingsOf(draft) as { settings: TunableSettings };
    expect(got.settings.deploy).toBeUndefined();
    expect(changesOf(SETTINGS, got.settings)).toEqual({
      gates: { acceptance: ['@po', 'bob@example.com'], deploy: ['ops@example.com', '@ops'] },
      testTimeoutSeconds: null,
      deploy: null,
      smells: { stallFactor: 2.5, gateWaitHours: 8 },
    });
  });

  it('replaces or removes the webhook without ever holding the old one', () => {
    const draft = draftOf(SETTINGS);
    const before = { kind: 'url', masked: 'https://ntfy.sh/…' } as const;
    expect(webhookChange(draft)).toEqual({});
    expect(webhookAfter(draft, before)).toBe(before);
    expect(webhookChange({ ...draft, clearWebhook: true })).toEqual({ notify: null });
    expect(webhookAfter({ ...draft, clearWebhook: true }, before)).toEqual({ kind: 'none' });
    const replaced = { ...draft, webhook: ' env:NTFY_URL ' };
    expect(webhookChange(replaced)).toEqual({ notify: { webhook: 'env:NTFY_URL' } });
    expect(webhookAfter(replaced, before)).toEqual({ kind: 'env', name: 'NTFY_URL' });
  });

  it('follows a change made on disk in the fields not edited here, and keeps the edited ones', () => {
    const draft = edit(draftOf(SETTINGS), { repairBudget: '5' });
    const now: TunableSettings = { ...SETTINGS, repairBudget: 4, testTimeoutSeconds: 90 };
    const next = rebased(draft, SETTINGS, now);
    expect(next.values['repairBudget']).toBe('5');
    expect(next.values['testTimeoutSeconds']).toBe('90');
    expect(changesOf(now, (settingsOf(next) as { settings: TunableSettings }).settings)).toEqual({ repairBudget: 5 });
  });

  it("puts each of main's issues next to its field, or its group", () => {
    expect(fieldOf({ path: 'smells.stallFactor', message: 'must be more than 1' })).toBe('smells.stallFactor');
    expect(fieldOf({ path: 'gates.acceptance.0', message: 'x' })).toBe('gates.acceptance');
    expect(fieldOf({ path: 'gates', message: 'names @nobody' })).toBeNull();
  });
});
