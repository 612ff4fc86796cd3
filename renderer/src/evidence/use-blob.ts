/** A ledger blob's content, loaded on mount (and again when the hash changes); a late answer for an old hash is dropped. */
import { useCallback, useEffect, useRef, useState } from 'react';
import { BLOB_PAGE_BYTES, MAX_BLOB_PAGE_BYTES, type BlobView } from '../../../shared/ledger';
import type { AppError } from '../../../shared/result';
import { api } from '../../client';
import { addPage, firstPage, nextOffset, type BlobPages } from '../lib/blob-pages';

/** The blob's first `limit` bytes (default: the largest page, 1 MB); `view.truncated` says when there is more. */
export function useBlob(sha256: string, limit = MAX_BLOB_PAGE_BYTES): { view: BlobView | null; error: AppError | null } {
  const [state, setState] = useState<{ sha256: string; view: BlobView | null; error: AppError | null }>({ sha256, view: null, error: null });
  useEffect(() => {
    let live = true;
    void api.invoke('ledger:blob', { sha256, limit }).then((result) => {
      if (live) setState(result.ok ? { sha256, view: result.value, error: null } : { sha256, view: null, error: result.error });
    });
    return () => {
      live = false;
    };
  }, [sha256, limit]);
  return state.sha256 === sha256 ? { view: state.view, error: state.error } : { view: null, error: null };
}

export interface BlobPaging {
  readonly pages: BlobPages | null;
  readonly error: AppError | null;
  readonly loadingMore: boolean;
  /** Loads the next page; does nothing while one loads or when none is left. */
  loadMore(): void;
}

/** The blob a page (BLOB_PAGE_BYTES) at a time, for a viewer that offers the rest on request. */
export function useBlobPages(sha256: string): BlobPaging {
  const first = useBlob(sha256, BLOB_PAGE_BYTES);
  const [state, setState] = useState<{ pages: BlobPages | null; error: AppError | null; loadingMore: boolean }>({
    pages: null,
    error: null,
    loadingMore: false,
  });
  const busy = useRef(false);
  useEffect(() => {
    busy.current = false;
    setState({ pages: first.view ? firstPage(first.view) : null, error: first.error, loadingMore: false });
  }, [first.view, first.error]);

  const pages = state.pages?.sha256 === sha256 ? state.pages : null;
  const loadMore = useCallback(() => {
    const offset = pages ? nextOffset(pages) : null;
    if (offset === null || busy.current) return;
    busy.current = true;
    setState((s) => ({ ...s, loadingMore: true }));
    void api.invoke('ledger:blob', { sha256, offset, limit: BLOB_PAGE_BYTES }).then((result) => {
      busy.current = false;
      setState((s) =>
        s.pages?.sha256 !== sha256
          ? s
          : result.ok
            ? { pages: addPage(s.pages, result.value), error: null, loadingMore: false }
            : { ...s, error: result.error, loadingMore: false },
      );
    });
  }, [pages, sha256]);

  return { pages, error: pages ? state.error : first.error, loadingMore: state.loadingMore, loadMore };
}
