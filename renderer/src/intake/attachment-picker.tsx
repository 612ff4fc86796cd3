/**
 * The request's attachments: a file picker (several at once), the files read as text and listed
 * with their size and a Remove button, and a sentence for each file that was left out.
 */
import { useId, useState } from 'react';
import type { Attachment } from '../lib/feature-draft';
import { Icon } from '../components/icon';
import { readAttachments } from './read-attachments';

interface Props {
  readonly attachments: readonly Attachment[];
  readonly disabled: boolean;
  readonly limit: number;
  /** Receives an update of the list (reading is asynchronous, so it applies to the newest list). */
  onChange(update: (current: readonly Attachment[]) => readonly Attachment[]): void;
}

const size = (bytes: number): string => (bytes < 1000 ? `${bytes} B` : `${(bytes / 1000).toFixed(bytes < 10_000 ? 1 : 0)} kB`);

export function AttachmentPicker({ attachments, disabled, limit, onChange }: Props) {
  const inputId = useId();
  const [problems, setProblems] = useState<readonly string[]>([]);
  const [reading, setReading] = useState(false);

  const pick = async (input: HTMLInputElement) => {
    const files = Array.from(input.files ?? []);
    // Cleared so that picking the same file again (after removing it) is a change.
    input.value = '';
    if (files.length === 0) return;
    setReading(true);
    const outcome = await readAttachments(files, attachments);
    setReading(false);
    setProblems(outcome.problems);
    if (outcome.added.length > 0) onChange((current) => [...current, ...outcome.added.filter((a) => !current.some((c) => c.name === a.name))]);
  };

  return (
    <div className="field attachments">
      <label htmlFor={inputId} className="field-label">
        Attachments <span className="muted field-optional">(optional; text files, at most {limit}, 1 MB each)</span>
      </label>
      <input
        id={inputId}
        type="file"
        multiple
        className="file-input"
        data-testid="new-feature-attachments"
        disabled={disabled || reading || attachments.length >= limit}
        aria-describedby={`${inputId}-hint`}
        onChange={(e) => void pick(e.currentTarget)}
      />
      <p id={`${inputId}-hint`} className="field-hint muted">
        {reading ? 'Reading…' : 'A product overview, constraints, design notes: saved beside the request and recorded with it.'}
      </p>
      {attachments.length > 0 && (
        <ul className="attachment-list" role="list" aria-label="Attachments" data-testid="new-feature-attachment-list">
          {attachments.map((a) => (
            <li key={a.name} className="attachment" data-testid={`attachment-${a.name}`}>
              <span className="mono attachment-name">{a.name}</span>
              {a.original !== a.name && <span className="muted">from {a.original}</span>}
              <span className="muted">{size(a.bytes)}</span>
              <span className="spacer" />
              <button
                type="button"
                className="button button-small button-quiet"
                data-testid={`attachment-remove-${a.name}`}
                aria-label={`Remove ${a.name}`}
                disabled={disabled}
                onClick={() => onChange((current) => current.filter((c) => c.name !== a.name))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {problems.length > 0 && (
        <ul className="attachment-problems" role="alert" data-testid="new-feature-attachment-problems">
          {problems.map((problem) => (
            <li key={problem}>
              <Icon name="warning" />
              <span>{problem}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
