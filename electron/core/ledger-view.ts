/** Pages of the ledger and blob contents, shaped for the Evidence timeline. */
import { join, relative } from 'node:path';
import { BLOB_PAGE_BYTES, MAX_BLOB_PAGE_BYTES, type BlobView, type LedgerPage } from '../../shared/ledger';
import { err, ok, type Result } from '../../shared/result';
import { verifyChain } from '../ledger';
import { SafeReadError } from '../platform/safe-read';
import type { LoadedProject } from './load-project';

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

/**
 * One page of a blob's content: `limit` bytes from `offset`, read as a stream (a gzip bomb inflates
 * no further than the page). A blob file that is a symlink, a FIFO, a device or oversized is
 * refused unread (electron/platform/safe-read.ts).
 */
export async function blobView(project: LoadedProject, sha256: string, offset = 0, limit = BLOB_PAGE_BYTES): Promise<Result<BlobView>> {
  const ref = project.records.flatMap((record) => record.blobs).find((blob) => blob.sha256 === sha256);
  const notFound = () => err('not-found', `No blob ${sha256.slice(0, 12)}… in this project's ledger. Run \`baton verify\` to check the ledger's blobs.`);
  if (!ref || !project.ledger) return notFound();
  const size = Math.min(Math.max(1, limit), MAX_BLOB_PAGE_BYTES);
  let page;
  try {
    page = await project.ledger.readBlobPage(sha256, offset, size);
  } catch (error) {
    const where = error instanceof SafeReadError ? `${relative(project.view.root, error.file)} ${error.detail}` : (error as Error).message;
    return err(
      error instanceof SafeReadError ? 'unsafe-file' : 'ledger-error',
      `The blob ${sha256.slice(0, 12)}… cannot be shown: ${where}. Run \`baton verify\` to check the ledger's blobs.`,
    );
  }
  if (!page) return notFound();
  // A page that stops inside a UTF-8 character ends before it; the next page starts with it.
  const length = page.more ? wholeCharacters(page.bytes) : page.bytes.length;
  const bytes = page.bytes.subarray(0, length);
  return ok({
    sha256,
    bytes: ref.bytes,
    offset,
    length,
    total: page.total,
    text: looksBinary(bytes) ? null : new TextDecoder('utf-8', { fatal: false }).decode(bytes),
    more: page.more,
    truncated: page.more || offset > 0,
  });
}

/** The length of `bytes` without a UTF-8 character cut off at its end. */
function wholeCharacters(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back for the lead
    const needs = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    // A page must hold something: a character longer than the page is left as it is.
    return needs > back && bytes.length > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

function looksBinary(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return true;
  try {
    // stream: a character cut at the end of the sample is not a reason to call the page binary.
    new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, Math.min(bytes.length, 64 * 1024 - 4)), { stream: true });
    return false;
  } catch {
    return true;
  }
}
