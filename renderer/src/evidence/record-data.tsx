/** A record's data as labelled fields (record-words.ts), with its raw JSON one click away. */
import { useMemo, useState } from 'react';
import { friendlyTime } from '../lib/format';
import { dataRows, type FieldRow, type FieldValue } from './record-words';

function Value({ value }: { value: FieldValue }) {
  switch (value.kind) {
    case 'fields':
      return <Fields rows={value.rows} />;
    case 'hash':
      return <code className="record-field-hash">{value.text}</code>;
    case 'long':
      return <span className="record-field-long">{value.text}</span>;
    case 'none':
      return <span className="muted">{value.text}</span>;
    case 'time': {
      const when = friendlyTime(value.text);
      return when ? (
        <time dateTime={value.text} title={value.text}>
          {when.absolute} <span className="muted">· {when.relative}</span>
        </time>
      ) : (
        <span>{value.text}</span>
      );
    }
    default:
      return <span>{value.text}</span>;
  }
}

function Fields({ rows, testId }: { rows: readonly FieldRow[]; testId?: string }) {
  return (
    <dl className="record-fields" data-testid={testId}>
      {rows.map((row) => (
        <div key={row.key} className={row.value.kind === 'fields' ? 'record-field record-field-nested' : 'record-field'} data-key={row.key}>
          <dt className={row.verbatim ? 'mono' : undefined}>{row.label}</dt>
          <dd>
            <Value value={row.value} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function RecordData({ data }: { data: Readonly<Record<string, unknown>> }) {
  const [raw, setRaw] = useState(false);
  const rows = useMemo(() => dataRows(data), [data]);
  return (
    <section className="drawer-section" aria-labelledby="record-data-title">
      <header className="record-data-head">
        <h3 id="record-data-title">Data</h3>
        {rows.length > 0 && (
          <button
            type="button"
            className="button button-quiet"
            data-testid="record-raw-toggle"
            aria-expanded={raw}
            aria-controls="record-data-raw"
            onClick={() => setRaw(!raw)}
          >
            {raw ? 'Hide raw JSON' : 'Show raw JSON'}
          </button>
        )}
      </header>
      {rows.length === 0 ? <p className="muted">No data.</p> : <Fields rows={rows} testId="record-fields" />}
      {rows.length > 0 && (
        <pre id="record-data-raw" className="artifact-text record-data" data-testid="record-raw" tabIndex={0} hidden={!raw}>
          {raw ? JSON.stringify(data, null, 2) : ''}
        </pre>
      )}
    </section>
  );
}
