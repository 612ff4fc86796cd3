/**
 * The frozen guard re-judges the gates only when its fingerprint moves: it must move on every
 * change a gate could rest on (an artifact edited — even with its size and mtime put back — added
 * or removed, a gate decided in the ledger) and stay still for the cycle's own bookkeeping.
 */
import { appendFile, mkdir, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Ledger } from '../ledger';
import { makeTempDir, removeDir } from '../project/temp-project.fixture';
import { guardFingerprint } from './guard-fingerprint';

let root: string;
let ledger: Ledger;
const later = () => Date.now() + 60_000;
const actor = { kind: 'orchestrator', id: 'baton' } as const;

beforeEach(async () => {
  root = await makeTempDir('baton-guard-');
  await mkdir(join(root, '.baton', 'features', 'F-1'), { recursive: true });
  await writeFile(join(root, '.baton', 'features', 'F-1', 'spec.md'), '# Spec\nAdds numbers.\n');
  ledger = Ledger.forArtifactRoot(join(root, '.baton'));
  await ledger.append({ type: 'gate.test-approved', actor });
});
afterEach(() => removeDir(root));

describe('the frozen guard’s fingerprint', () => {
  it('stays still for the cycle’s own records, the ledger’s files and Baton’s state', async () => {
    const before = await guardFingerprint(root, ledger, later());
    expect(before).toMatch(/^[0-9a-f]{64}$/);
    await ledger.append({ type: 'cycle.test-step', actor, blobs: [{ name: 'out', content: 'output' }] });
    await ledger.append({ type: 'item.test-status', actor });
    await mkdir(join(root, '.baton', 'state'), { recursive: true });
    await writeFile(join(root, '.baton', 'state', 'cycle-T1.json'), '{}');
    expect(await guardFingerprint(root, ledger, later())).toBe(before);
  });

  it('moves when a gate is decided in the ledger', async () => {
    const before = await guardFingerprint(root, ledger, later());
    await ledger.append({ type: 'gate.test-withdrawn', actor: { kind: 'person', id: 'PO' } });
    expect(await guardFingerprint(root, ledger, later())).not.toBe(before);
  });

  it('moves when an artifact is edited, even with its size and mtime put back', async () => {
    const spec = join(root, '.baton', 'features', 'F-1', 'spec.md');
    await utimes(spec, 1_700_000_000, 1_700_000_000); // whole seconds, so they can be put back exactly
    const before = await guardFingerprint(root, ledger, later());
    const { mtimeNs, size } = await stat(spec, { bigint: true });
    await writeFile(spec, '# Spec\nAdds letters.\n'); // same size
    await utimes(spec, 1_700_000_000, 1_700_000_000);
    expect(await stat(spec, { bigint: true })).toMatchObject({ size, mtimeNs });
    expect(await guardFingerprint(root, ledger, later())).not.toBe(before);
  });

  it('moves when an artifact is added or removed, in Consort’s folders too', async () => {
    const before = await guardFingerprint(root, ledger, later());
    await mkdir(join(root, '.consort'), { recursive: true });
    await writeFile(join(root, '.consort', 'gates.json'), '{}');
    const added = await guardFingerprint(root, ledger, later());
    expect(added).not.toBe(before);
    await unlink(join(root, '.baton', 'features', 'F-1', 'spec.md'));
    expect(await guardFingerprint(root, ledger, later())).not.toBe(added);
  });

  it('is withheld while a file changed within the last second could still change unseen', async () => {
    await appendFile(join(root, '.baton', 'features', 'F-1', 'spec.md'), 'More.\n');
    expect(await guardFingerprint(root, ledger, Date.now())).toBeNull();
  });
});
