/** `baton verify`: the chain and its blobs, the signature, every gate's approved hashes against the disk, and the tiers' applied migrations against the code. */
import { join } from 'node:path';
import type { VerifyReport } from '../../shared/ledger';
import { verifyGates } from '../gates';
import { checkSignature, verifyChain } from '../ledger';
import type { LoadedProject } from './load-project';
import { tierMigrationProblems } from './tier-migrations';

export async function verifyProject(project: LoadedProject): Promise<VerifyReport> {
  const { view, records } = project;
  const ledgerDir = join(view.artifactRoot, 'ledger');
  const chain = project.ledger ? await verifyChain(ledgerDir) : { records: 0, head: null, chain: { ok: true }, problems: [] };
  const signature = project.ledger ? await checkSignature(ledgerDir, records) : { state: 'unsigned' as const };
  const gates = await verifyGates(view, project.ledger ? records : null);
  const tiers = project.ledger ? await tierMigrationProblems(view.root, view.artifactRoot, records) : [];
  const problems = [
    ...chain.problems,
    ...(signature.state === 'invalid' ? [{ file: '.baton/ledger/head.sig.json', message: signature.message ?? 'the head signature does not verify' }] : []),
    ...gates.problems,
    ...tiers,
  ];
  return {
    ok: chain.chain.ok && problems.length === 0,
    records: chain.records,
    head: chain.head,
    chain: chain.chain,
    gates: gates.gates,
    signature: signature.state,
    problems,
  };
}
