/**
 * Approvers who are who they say (issue 32, part 6), through the CLI on a real project and git
 * repository, each person with their own config folder (their own machine): `baton key` lists a
 * key under approverKeys; a decision as that person is refused without their key and signed with
 * it; `baton verify` proves who approved, names an unsigned approval under a policy as
 * "unauthenticated" (`--strict` fails), and fails outright on a signed record edited and re-chained.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerRecord } from '../../shared/ledger';
import { RECORD_TYPES } from '../../shared/records';
import { Workbench } from '../core/workbench';
import { batonFeature } from '../gates/gate-project.fixture';
import { writeTree } from '../project/temp-project.fixture';
import { baton, readRecords, rechain, writeRecords, type Report } from './tamper.fixture';

const run = promisify(execFile);
const ADA = 'Ada Lovelace <ada@example.com>';
const BOB = 'Bob <bob@example.com>';

let base: string;
let repo: string;
/** Each person's machine: their own config folder, so their own key. */
const machine = (who: string) => join(base, `config-${who}`);

const json = async (who: string, ...argv: string[]) => {
  const result = await baton(machine(who), ...argv, '--json');
  return { code: result.code, json: JSON.parse(result.out) as Record<string, unknown> & { error?: { code: string; message: string } } };
};
const verify = async (...flags: string[]) => {
  const result = await baton(machine('reviewer'), 'verify', repo, '--json', ...flags);
  return { code: result.code, report: JSON.parse(result.out) as Report };
};
const approve = (who: string, gate: string, approver: string) =>
  json(who, 'approve', repo, '--feature', 'F-1', '--gate', gate, '--yes', '--approver', approver);

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'baton-signed-approvers-'));
  repo = join(base, 'shop');
  await run('git', ['init', '-q', '-b', 'main', repo]);
  expect((await baton(machine('ada'), 'init', repo)).code).toBe(0);
  await writeTree(repo, batonFeature('F-1'));
  const file = join(repo, '.baton', 'project.json');
  const settings = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  await writeFile(
    file,
    JSON.stringify({ ...settings, gates: { spec: ['ada@example.com'], design: ['@po'] }, approverRoles: { po: ['bob@example.com'] } }, null, 2),
  );
}, 60_000);

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('signed approvals', () => {
  let adaKey: string;

  it('`baton key` makes the key once and lists it for the approver in project.json', async () => {
    const first = await json('ada', 'key', repo, '--approver', ADA);
    expect(first.code).toBe(0);
    expect(first.json).toMatchObject({ ok: true, created: true, added: true, email: 'ada@example.com' });
    adaKey = first.json['key'] as string;
    expect(adaKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const settings = JSON.parse(await readFile(join(repo, '.baton', 'project.json'), 'utf8')) as { approverKeys: Record<string, string[]> };
    expect(settings.approverKeys).toEqual({ 'ada@example.com': [adaKey] });
    // Again: the same key, nothing added twice.
    expect((await json('ada', 'key', repo, '--approver', ADA)).json).toMatchObject({ key: adaKey, created: false, added: false });
    // An approver with no email names nobody: refused, nothing written.
    const nameless = await json('ada', 'key', repo, '--approver', 'Ada');
    expect(nameless.json.error?.message).toContain('names no email');
  });

  it('refuses a decision as Ada on a machine without her key, in words that say whose key is needed', async () => {
    const keyless = await approve('mallory', 'spec', ADA);
    expect(keyless.json.error).toMatchObject({ code: 'not-allowed' });
    expect(keyless.json.error!.message).toContain(`Decisions as ada@example.com must be signed with their key (${adaKey.slice(0, 12)}…`);
    expect(keyless.json.error!.message).toContain('this machine has no signing key');
    // Mallory makes a key of her own: still not Ada's.
    expect((await baton(machine('mallory'), 'key', repo, '--approver', 'Mallory <mallory@example.com>')).code).toBe(0);
    const other = await approve('mallory', 'spec', ADA);
    expect(other.json.error!.message).toMatch(/this machine's key is [A-Za-z0-9_-]{12}…/);
    expect((await readRecords(repo)).filter((r) => r.type === RECORD_TYPES.gateApproved)).toEqual([]);
  });

  it('signs Ada’s approval with her key; verify proves it, and the gate view says so', async () => {
    const approved = await approve('ada', 'spec', ADA);
    expect(approved.code).toBe(0);
    const record = approved.json['record'] as LedgerRecord;
    expect(record.data['signature']).toMatchObject({ key: adaKey, value: expect.any(String) });
    const { code, report } = await verify();
    expect(code).toBe(0);
    expect(report.approvals).toEqual({ signed: 1, typed: 0, unauthenticated: [] });
    // A reviewer who trusts only their own lists: Ada's key is on none of them, so the folder's word for it proves nothing.
    const own = await verify('--own-trust');
    expect(own.report.approvals?.unauthenticated).toEqual([
      expect.objectContaining({ gate: 'spec', why: expect.stringContaining('on none of your own lists (--own-trust)') }),
    ]);
    await writeFile(join(machine('reviewer'), 'trusted-keys.json'), JSON.stringify({ trustedKeys: [{ key: adaKey, name: 'Ada' }] }));
    expect((await verify('--own-trust')).report.approvals).toEqual({ signed: 1, typed: 0, unauthenticated: [] });
    const workbench = new Workbench({ host: 'browser', version: '0.0.0', configDir: machine('reviewer') });
    expect((await workbench.open(repo)).ok).toBe(true);
    expect(workbench.project!.features[0]!.gates.find((g) => g.name === 'spec')?.approverProof).toEqual({ state: 'signed', key: adaKey });
    await workbench.close?.();
  });

  it('an unsigned approval under the policy is unauthenticated: plain verify reports it, --strict fails', async () => {
    // Bob has no key listed; the policy names who may decide the design gate, so his typed name proves nothing.
    const design = await approve('bob', 'design', BOB);
    expect(design.code).toBe(0);
    const seq = (design.json['record'] as LedgerRecord).seq;
    const plain = await verify();
    expect(plain.code).toBe(0);
    expect(plain.report.approvals?.unauthenticated).toEqual([
      { seq, gate: 'design', approver: BOB, why: 'it is not signed, and the policy in .baton/project.json names who may decide the design gate' },
    ]);
    const strict = await verify('--strict');
    expect(strict.code).toBe(1);
    expect(strict.report.strict).toContain(
      `unauthenticated approval: record #${seq} (the design gate, approved as ${BOB}): it is not signed, and the policy in .baton/project.json names who may decide the design gate`,
    );
    const human = await baton(machine('reviewer'), 'verify', repo);
    expect(human.out).toContain('Approvals: 1 signed by their approver · 0 typed (no key listed for them) · 1 unauthenticated');
    // `baton gates` says the same of each approval in force.
    const gates = await baton(machine('reviewer'), 'gates', repo);
    expect(gates.out).toContain(`${ADA} (signed by their key)`);
    expect(gates.out).toContain(`${BOB} (unauthenticated)`);
  });

  it('a signed approval edited and re-chained fails verify; with its signature dropped it is unauthenticated', async () => {
    const records = await readRecords(repo);
    const index = records.findIndex((r) => r.type === RECORD_TYPES.gateApproved && r.subject.gate === 'spec');
    const forged = records.map((r, i) => (i === index ? { ...r, data: { ...r.data, approver: 'Mallory <ada@example.com>' } } : r));
    await writeRecords(repo, rechain(forged));
    const edited = await verify();
    expect(edited.code).toBe(1);
    expect(edited.report.problems.map((p) => p.message)).toContainEqual(
      expect.stringContaining(`record #${records[index]!.seq} (gate.approved by ${ADA}) carries a signature by ${adaKey.slice(0, 12)}… that does not verify`),
    );
    // The signature dropped instead: the approval is no longer Ada's proof, only a typed claim.
    const dropped = records.map((r, i) => {
      if (i !== index) return r;
      const { signature: _gone, ...data } = r.data;
      return { ...r, data };
    });
    await writeRecords(repo, rechain(dropped));
    const strict = await verify('--strict');
    expect(strict.code).toBe(1);
    expect(strict.report.approvals?.unauthenticated.map((u) => u.seq)).toContain(records[index]!.seq);
    await writeRecords(repo, records);
    expect((await verify()).code).toBe(0);
  });

  it('a project.json broken so that it does not read switches no policy off: every approval is unauthenticated', async () => {
    const file = join(repo, '.baton', 'project.json');
    const text = await readFile(file, 'utf8');
    try {
      await writeFile(file, text.replace('"approverKeys"', '"approverKeys" ,,'));
      const strict = await verify('--strict');
      expect(strict.code).toBe(1);
      expect(strict.report.approvals?.signed).toBe(0);
      expect(strict.report.approvals?.unauthenticated.map((u) => u.why)).toEqual([
        expect.stringContaining('the approver policy cannot be read'),
        expect.stringContaining('the approver policy cannot be read'),
      ]);
    } finally {
      await writeFile(file, text);
    }
  });

  it('a project with no policy keeps typed approvals, shown as typed, not signed', async () => {
    const file = join(repo, '.baton', 'project.json');
    const settings = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    delete settings['gates'];
    delete settings['approverRoles'];
    delete settings['approverKeys'];
    await writeFile(file, JSON.stringify(settings, null, 2));
    const { code, report } = await verify('--strict');
    // --strict fails here for the checkpoints (Ada's key is on none of the reviewer's lists), never for a typed approval.
    expect(report.strict?.some((s) => s.startsWith('unauthenticated approval'))).toBe(false);
    expect(code).toBe(1);
    // Ada's signature stands, but with approverKeys gone no policy ties her key to her: typed too.
    expect(report.approvals).toEqual({ signed: 0, typed: 2, unauthenticated: [] });
  });

  it('the demo Product Owner’s approvals are signed with the user’s key when they have one, typed when not', async () => {
    const signedBy = async (who: string) => {
      const prepared = await baton(machine(who), 'demo', '--no-run', '--no-mutation', '--json');
      expect(prepared.code).toBe(0);
      const { project } = JSON.parse(prepared.out) as { project: string };
      try {
        const approvals = (await readRecords(project)).filter((r) => r.type === RECORD_TYPES.gateApproved);
        expect(approvals.map((r) => r.subject.gate)).toEqual(['spec', 'design', 'test_list']);
        return approvals.map((r) => (r.data['signature'] as { key?: string } | undefined)?.key ?? null);
      } finally {
        await rm(join(project, '..'), { recursive: true, force: true });
      }
    };
    expect(await signedBy('ada')).toEqual([adaKey, adaKey, adaKey]);
    expect(await signedBy('nobody')).toEqual([null, null, null]);
  }, 60_000);
});
