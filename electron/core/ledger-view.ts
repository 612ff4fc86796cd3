/** Pages of the ledger and blob contents, shaped for the Evidence timeline. */
import { join } from 'node:path';
import type { BlobView, LedgerPage } from '../../shared/ledger';
import { err, ok, type Result } from '../../shared/result';
import { verifyChain } from '../ledger';
import type { LoadedProject } from './load-project';

const MAX_BLOB_TEXT = 1024 * 1024;
const DEFAULT_PAGE = 200;

type ChainState = Pick<LedgerPage, 'head' | 'chain' | 'problems'>;

// Verifying reads every record and blob (about half a second at 10,000 records), so it runs once per
// loaded project, not once per page. A decision reloads the project, which verifies afresh.
const chainStates = new WeakMap<LoadedProject, Promise<ChainState>>();

function chainState(project: LoadedProject): Promise<ChainState> {
  let state = chainStates.get(project);
  if (!state) {
    state = project.ledger ? verifyChain(join(project.view.artifactRoot, 'ledger')) : Promise.resolve({ head: null, chain: { ok: true }, problems: [] });
    chainStates.set(project, state);
  }
  return state;
}

export async function ledgerPage(project: LoadedProject, offset = 0, limit = DEFAULT_PAGE): Promise<LedgerPage> {
  const { records } = project;
  const chain = await chainState(project);
  return {
    total: records.length,
    offset,
    records: records.slice(offset, offset + limit),
    head: chain.head,
    chain: chain.chain,
    problems: chain.problems,
  };
}

export async function blobView(project: LoadedProject, sha256: string): Promise<Result<BlobView>> {
  const known = project.records.some((record) => record.blobs.some((blob) => blob.sha256 === sha256));
  const content = known && project.ledger ? await project.ledger.readBlob(sha256) : null;
  if (!content) {
    return err('not-found', `No blob ${sha256.slice(0, 12)}… in this project's ledger. Run \`baton verify\` to check the ledger's blobs.`);
  }
  const head = content.subarray(0, MAX_BLOB_TEXT);
  return ok({
    sha256,
    bytes: content.length,
    text: looksBinary(head) ? null : new TextDecoder('utf-8', { fatal: false }).decode(head),
    truncated: content.length > MAX_BLOB_TEXT,
  });
}

function looksBinary(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, Math.min(bytes.length, 64 * 1024 - 4)));
    return false;
  } catch {
    return true;
  }
}
