/**
 * The locked versions of an item's test files, read from the ledger by their hashes (each a blob
 * its lock stored), for the amendment dialog to start from. A file that is binary or longer than
 * the 1 MB a blob view holds cannot be edited here: it says so instead of offering a cut copy.
 */
import { useEffect, useState } from 'react';
import { MAX_BLOB_PAGE_BYTES } from '../../../shared/ledger';
import type { LockedTests } from '../../../shared/model';
import type { AppError } from '../../../shared/result';
import { api } from '../../client';

export type LockedText =
  | { readonly state: 'loading' }
  | { readonly state: 'text'; readonly text: string }
  | { readonly state: 'unusable'; readonly why: string }
  | { readonly state: 'error'; readonly error: AppError };

export function useLockedTexts(files: LockedTests['files']): Readonly<Record<string, LockedText>> {
  const [texts, setTexts] = useState<Readonly<Record<string, LockedText>>>({});
  const key = files.map((f) => `${f.path}\n${f.sha256}`).join('\n');

  useEffect(() => {
    let live = true;
    for (const file of files) {
      void api.invoke('ledger:blob', { sha256: file.sha256, limit: MAX_BLOB_PAGE_BYTES }).then((result) => {
        if (!live) return;
        let text: LockedText;
        if (!result.ok) text = { state: 'error', error: result.error };
        else if (result.value.text === null) text = { state: 'unusable', why: `${file.path} is binary: propose its new version with \`baton amend propose\`.` };
        else if (result.value.truncated)
          text = { state: 'unusable', why: `${file.path} is longer than 1 MB, too long to edit here: propose its new version with \`baton amend propose\`.` };
        else text = { state: 'text', text: result.value.text };
        setTexts((t) => ({ ...t, [file.path]: text }));
      });
    }
    return () => {
      live = false;
    };
    // The files are named by `key`: a new array of the same files reads nothing again.
  }, [key]);

  return texts;
}

/** The locked texts that were read, by path. */
export const knownTexts = (texts: Readonly<Record<string, LockedText>>): Record<string, string> =>
  Object.fromEntries(Object.entries(texts).flatMap(([path, t]) => (t.state === 'text' ? [[path, t.text]] : [])));
