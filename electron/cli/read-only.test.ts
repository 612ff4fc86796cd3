/**
 * Commands that would write say why they cannot on a read-only project (a Consort project) and exit
 * 1, before printing hashes or doing anything; the folder is left exactly as it was.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dispatch } from '../core/dispatch';
import { createHandlers } from '../core/handlers';
import { Workbench } from '../core/workbench';
import { main } from './main';

const FIXTURE = path.resolve(import.meta.dirname, '../../e2e/fixtures/consort-shop');
const GATE = ['--feature', 'F-checkout', '--gate', 'deploy'];

const run = async (args: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
};

describe('write commands on a Consort project', () => {
  it.each([
    ['approve', ['approve', FIXTURE, ...GATE, '--approver', 'Ada <ada@example.com>']],
    ['approve --yes', ['approve', FIXTURE, ...GATE, '--yes', '--approver', 'Ada <ada@example.com>']],
    ['reject', ['reject', FIXTURE, ...GATE, '--reason', 'no', '--approver', 'Ada <ada@example.com>']],
    ['withdraw', ['withdraw', FIXTURE, '--feature', 'F-checkout', '--gate', 'spec', '--reason', 'no', '--approver', 'Ada <ada@example.com>']],
    ['restore', ['restore', FIXTURE, '--feature', 'F-checkout', '--gate', 'spec', '--yes']],
    ['resolve', ['resolve', FIXTURE, '--feature', 'F-checkout', '--item', 'T5', '--decision', 'skip', '--approver', 'Ada <ada@example.com>']],
    ['run', ['run', FIXTURE]],
    ['sign', ['sign', FIXTURE]],
  ])('%s says the project is read-only and exits 1, printing nothing else', async (_name, args) => {
    const result = await run(args);
    expect(result.code).toBe(1);
    expect(result.err).toContain('Baton reads this Consort project and never writes it');
    expect(result.out).toBe('');
    expect(existsSync(path.join(FIXTURE, '.baton'))).toBe(false);
  });

  it('--json carries the same refusal as data', async () => {
    const result = await run(['approve', FIXTURE, ...GATE, '--yes', '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.out)).toMatchObject({ ok: false, error: { code: 'read-only' } });
  });
});

describe('one refusal, every host', () => {
  // The browser host and the Electron app both answer through dispatch(createHandlers(workbench)):
  // the CLI must refuse with the same code and the same words.
  const channel = async (name: string, payload: unknown) => {
    const workbench = new Workbench({ host: 'browser', version: '0.0.0', configDir: mkdtempSync(path.join(tmpdir(), 'baton-ro-')) });
    try {
      expect((await workbench.open(FIXTURE)).ok).toBe(true);
      const result = await dispatch(createHandlers(workbench), name, payload);
      if (result.ok) throw new Error(`${name} should have been refused`);
      return result.error;
    } finally {
      await workbench.close();
    }
  };
  const approver = 'Ada <ada@example.com>';

  it.each([
    ['run', ['run', FIXTURE], 'run:start', {}],
    [
      'approve',
      ['approve', FIXTURE, ...GATE, '--yes', '--approver', approver],
      'gates:approve',
      { feature: 'F-checkout', gate: 'deploy', approver, expect: {} },
    ],
    [
      'reject',
      ['reject', FIXTURE, ...GATE, '--reason', 'no', '--approver', approver],
      'gates:reject',
      { feature: 'F-checkout', gate: 'deploy', approver, reason: 'no' },
    ],
    [
      'resolve',
      ['resolve', FIXTURE, '--feature', 'F-checkout', '--item', 'T5', '--decision', 'skip', '--approver', approver],
      'escalations:decide',
      { feature: 'F-checkout', item: 'T5', decision: 'skip', approver },
    ],
  ])('%s: the CLI and the channel say the same', async (_name, args, name, payload) => {
    const viaChannel = await channel(name, payload);
    expect(viaChannel.code).toBe('read-only');
    const viaCli = await run([...args, '--json']);
    expect(viaCli.code).toBe(1);
    expect(JSON.parse(viaCli.out)).toEqual({ ok: false, error: viaChannel });
  });
});
