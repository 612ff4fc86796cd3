/** A ledger blob's content, loaded on mount (and again when the hash changes); a late answer for an old hash is dropped. */
import { useEffect, useState } from 'react';
import type { BlobView } from '../../../shared/ledger';
import type { AppError } from '../../../shared/result';
import { api } from '../../client';

export function useBlob(sha256: string): { view: BlobView | null; error: AppError | null } {
  const [state, setState] = useState<{ sha256: string; view: BlobView | null; error: AppError | null }>({ sha256, view: null, error: null });
  useEffect(() => {
    let live = true;
    void api.invoke('ledger:blob', { sha256 }).then((result) => {
      if (live) setState(result.ok ? { sha256, view: result.value, error: null } : { sha256, view: null, error: result.error });
    });
    return () => {
      live = false;
    };
  }, [sha256]);
  return state.sha256 === sha256 ? { view: state.view, error: state.error } : { view: null, error: null };
}
