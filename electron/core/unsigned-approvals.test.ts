/**
 * Signed checkpoints as the screens show them: in a project that signs, an approval after the newest
 * checkpoint reads "not signed"; once the user has a key, each decision through the workbench is
 * checkpointed at once; a project that signs nothing shows no mark.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GateName } from '../../shared/ledger';
import { gateOf, makeBatonProject, PERSON, type TestProject } from '../gates/gate-project.fixture';
import { loadOrCreateSigningKey, signHead } from '../ledger';
import { loadProject } from './load-project';
import { Workbench } from './workbench';

let p: TestProject;
let configDir: string;
beforeEach(async () => {
  p = await makeBatonProject();
  configDir = path.join(p.root, '..', `${path.basename(p.root)}-config`);
});
afterEach(() => p.cleanup());

const ledgerDir = () => path.join(p.root, '.baton', 'ledger');
const gates = async () => {
  const loaded = await loadProject(p.root);
  if (!loaded.ok) throw new Error(loaded.error.message);
  await loaded.value.dispose();
  return { spec: gateOf(loaded.value.view, 'spec'), design: gateOf(loaded.value.view, 'design') };
};

describe('unsigned approvals', () => {
  it('are not marked in a project that signs nothing', async () => {
    expect((await p.approve('spec')).ok).toBe(true);
    const { spec } = await gates();
    expect(spec.status).toBe('approved');
    expect(spec.unsigned).toBeUndefined();
  });

  it('are marked after the newest checkpoint, and not before it', async () => {
    expect((await p.approve('spec')).ok).toBe(true);
    await signHead(ledgerDir(), configDir);
    // A decision recorded without a key (or appended by someone with the folder): nobody signed for it.
    expect((await p.approve('design')).ok).toBe(true);
    const { spec, design } = await gates();
    expect(spec).toMatchObject({ status: 'approved', unsigned: false });
    expect(design).toMatchObject({ status: 'approved', unsigned: true });
  });

  it('are checkpointed at once when the decider has a signing key', async () => {
    await loadOrCreateSigningKey(configDir);
    const workbench = new Workbench({ host: 'cli', version: 'test', configDir });
    expect((await workbench.open(p.root)).ok).toBe(true);
    for (const gate of ['spec', 'design'] as GateName[]) {
      const ref = { feature: 'F-1', gate };
      const evidence = await workbench.evidence(ref);
      if (!evidence.ok) throw new Error(evidence.error.message);
      const expected = Object.fromEntries(evidence.value.artifacts.flatMap((a) => (a.sha256 ? [[a.name, a.sha256]] : [])));
      const approved = await workbench.approve({ ...ref, approver: PERSON, expect: expected });
      expect(approved.ok, approved.ok ? '' : approved.error.message).toBe(true);
    }
    await workbench.close();
    const lines = (await readFile(path.join(ledgerDir(), 'checkpoints.jsonl'), 'utf8')).trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { seq: number }).seq)).toEqual([1, 2]);
    const { spec, design } = await gates();
    expect(spec.unsigned).toBe(false);
    expect(design.unsigned).toBe(false);
  });
});
