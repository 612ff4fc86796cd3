/**
 * A blob read a page at a time (`ledger:blob` answers one page): the pages loaded so far, joined,
 * and where the next one starts. A page that does not follow the last one (a late answer, asked
 * twice) is ignored; a page that turns out binary ends the text there.
 */
import type { BlobView } from '../../../shared/ledger';

export interface BlobPages {
  readonly sha256: string;
  /** The blob's size as its record states. */
  readonly bytes: number;
  /** The text of every page loaded, in order; null when the first page is binary. */
  readonly text: string | null;
  /** Bytes of content covered so far (from 0). */
  readonly loaded: number;
  /** More content follows what is loaded. */
  readonly more: boolean;
  /** Where content turned binary after text pages; null when it did not. */
  readonly binaryFrom: number | null;
  /** Everything is loaded and it is text: the whole content, fit for formatting (JSON pretty-printed). */
  readonly complete: boolean;
}

export const firstPage = (view: BlobView): BlobPages => ({
  sha256: view.sha256,
  bytes: view.bytes,
  text: view.text,
  loaded: view.offset + view.length,
  more: view.text !== null && view.more,
  binaryFrom: null,
  complete: view.text !== null && view.offset === 0 && !view.more,
});

export function addPage(pages: BlobPages, view: BlobView): BlobPages {
  if (view.sha256 !== pages.sha256 || view.offset !== pages.loaded || pages.text === null || !pages.more) return pages;
  if (view.text === null) return { ...pages, more: false, binaryFrom: view.offset };
  return { ...pages, text: pages.text + view.text, loaded: view.offset + view.length, more: view.more, complete: !view.more };
}

/** The offset to ask for next, or null when nothing more can be loaded. */
export const nextOffset = (pages: BlobPages): number | null => (pages.more ? pages.loaded : null);
