import { describe, expect, it } from 'vitest';
import { changesOf, maskWebhook, settingsChangesSchema, settingsDiff, type TunableSettings } from './project-settings';

describe('maskWebhook', () => {
  it('shows a URL as its scheme and host only, env:NAME as it is, and nothing when unset', () => {
    expect(maskWebhook('https://ntfy.sh/secret-topic?auth=x')).toEqual({ kind: 'url', masked: 'https://ntfy.sh/…' });
    expect(maskWebhook('https://user:pass@Hooks.Slack.com/services/T0/B0/XYZ')).toEqual({ kind: 'url', masked: 'https://hooks.slack.com/…' });
    expect(maskWebhook('http://127.0.0.1:8080/hook')).toEqual({ kind: 'url', masked: 'http://127.0.0.1/…' });
    expect(maskWebhook('env:NTFY_URL')).toEqual({ kind: 'env', name: 'NTFY_URL' });
    expect(maskWebhook(undefined)).toEqual({ kind: 'none' });
    expect(JSON.stringify(maskWebhook('not a url with secret'))).not.toContain('secret');
  });
});

describe('changesOf and settingsDiff', () => {
  const before: TunableSettings = {
    repairBudget: 3,
    testTimeoutSeconds: 120,
    deploy: { start: 'node server.js', health: '/health', verify: 'node smoke.js' },
    gates: { acceptance: ['@po'] },
    approverRoles: { po: ['ada@example.com'] },
  };

  it('names nothing when only the order of keys differs', () => {
    const reordered: TunableSettings = { ...before, deploy: { verify: 'node smoke.js', health: '/health', start: 'node server.js' } };
    expect(changesOf(before, reordered)).toEqual({});
    expect(settingsDiff(before, reordered)).toEqual([]);
  });

  it('names each changed top-level key with its new value, null for a removed one', () => {
    const after: TunableSettings = { ...before, repairBudget: 5, testTimeoutSeconds: undefined, smells: { stallFactor: 4 } };
    expect(changesOf(before, after)).toEqual({ repairBudget: 5, testTimeoutSeconds: null, smells: { stallFactor: 4 } });
  });

  it('shows every changed leaf old → new, defaults and lists in words', () => {
    const after: TunableSettings = {
      ...before,
      repairBudget: 5,
      testTimeoutSeconds: undefined,
      deploy: { start: 'node server.js', verify: 'node smoke.js', readySeconds: 30 },
      gates: { acceptance: ['@po', 'bob@example.com'], deploy: ['ops@example.com'] },
      smells: { stallFactor: 4 },
    };
    expect(settingsDiff(before, after)).toEqual([
      { key: 'gates.acceptance', from: '@po', to: '@po, bob@example.com' },
      { key: 'gates.deploy', from: '(default)', to: 'ops@example.com' },
      { key: 'repairBudget', from: '3', to: '5' },
      { key: 'testTimeoutSeconds', from: '120', to: '(default)' },
      { key: 'deploy.health', from: '"/health"', to: '(default)' },
      { key: 'deploy.readySeconds', from: '(default)', to: '30' },
      { key: 'smells.stallFactor', from: '(default)', to: '4' },
    ]);
  });

  it('shows the webhook masked on both sides', () => {
    const rows = settingsDiff(before, before, { from: maskWebhook('https://ntfy.sh/old-secret'), to: maskWebhook('https://hooks.slack.com/new-secret') });
    expect(rows).toEqual([{ key: 'notify.webhook', from: 'https://ntfy.sh/… (hidden)', to: 'https://hooks.slack.com/… (hidden)' }]);
    expect(settingsDiff(before, before, { from: maskWebhook('env:HOOK'), to: maskWebhook(undefined) })).toEqual([
      { key: 'notify.webhook', from: 'env:HOOK', to: '(none)' },
    ]);
  });
});

describe('settingsChangesSchema', () => {
  it('takes only the tunable keys, and at least one', () => {
    expect(settingsChangesSchema.safeParse({ changes: { repairBudget: 4, notify: null } }).success).toBe(true);
    expect(settingsChangesSchema.safeParse({ changes: { testCommand: 'x' } }).success).toBe(false);
    expect(settingsChangesSchema.safeParse({ changes: {} }).success).toBe(false);
    // A request nested 100,000 deep is refused before anything walks it recursively.
    const deep = JSON.parse(`{"smells":${'['.repeat(100_000)}${']'.repeat(100_000)}}`) as unknown;
    expect(settingsChangesSchema.safeParse({ changes: deep }).success).toBe(false);
  });
});
