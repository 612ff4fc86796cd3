import { describe, expect, it } from 'vitest';
import type { BlobView } from '../../../shared/ledger';
import { addPage, firstPage, nextOffset } from './blob-pages';

const SHA = 'a'.repeat(64);
const page = (offset: number, text: string | null, more: boolean, patch: Partial<BlobView> = {}): BlobView => ({
  sha256: SHA,
  bytes: 12,
  offset,
  length: text?.length ?? 4,
  total: more ? null : 12,
  text,
  more,
  truncated: more || offset > 0,
  ...patch,
});

describe('a blob read a page at a time', () => {
  it('a small blob is one complete page: nothing more to load', () => {
    const pages = firstPage(page(0, 'hello world!', false));
    expect(pages).toMatchObject({ text: 'hello world!', loaded: 12, more: false, complete: true });
    expect(nextOffset(pages)).toBeNull();
  });

  it('pages join in order, each asked for where the last one ended', () => {
    let pages = firstPage(page(0, 'hell', true));
    expect(nextOffset(pages)).toBe(4);
    pages = addPage(pages, page(4, 'o wo', true));
    expect([pages.text, nextOffset(pages), pages.complete]).toEqual(['hello wo', 8, false]);
    pages = addPage(pages, page(8, 'rld!', false));
    expect([pages.text, nextOffset(pages), pages.complete]).toEqual(['hello world!', null, true]);
  });

  it('ignores a page that does not follow (a late or repeated answer) or belongs to another blob', () => {
    const pages = addPage(firstPage(page(0, 'hell', true)), page(4, 'o wo', true));
    expect(addPage(pages, page(4, 'o wo', true))).toBe(pages);
    expect(addPage(pages, page(8, 'rld!', false, { sha256: 'b'.repeat(64) }))).toBe(pages);
  });

  it('a binary first page shows as binary; a later binary page ends the text where it starts', () => {
    expect(firstPage(page(0, null, true))).toMatchObject({ text: null, more: false, complete: false });
    const pages = addPage(firstPage(page(0, 'text', true)), page(4, null, true));
    expect(pages).toMatchObject({ text: 'text', more: false, binaryFrom: 4, complete: false });
  });
});
