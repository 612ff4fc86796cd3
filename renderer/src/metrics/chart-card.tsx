/**
 * One chart on the Metrics screen: its title, a legend (colour with a word), the chart or its table
 * (a toggle), and what fills it when nothing is recorded yet. Every table row links to its records.
 */
import { useState, type ReactNode } from 'react';
import { hrefForRecord } from '../store/hash-route';
import { barTotal, formatValue, type BarChart, type Series } from './chart-data';

export function RecordLinks({ seqs }: { seqs: readonly number[] }) {
  if (seqs.length === 0) return <span className="chart-none">no record</span>;
  const shown = seqs.slice(0, 6);
  return (
    <span className="record-links">
      {shown.map((seq) => (
        <a key={seq} href={hrefForRecord(seq)} data-testid="table-record-link">
          #{seq}
        </a>
      ))}
      {seqs.length > shown.length && <span className="chart-none"> +{seqs.length - shown.length} more</span>}
    </span>
  );
}

export function Legend({ series }: { series: readonly Series[] }) {
  return (
    <ul className="chart-legend" aria-label="Legend">
      {series.map((s) => (
        <li key={s.key}>
          <span className={`chart-swatch tone-${s.tone}`} aria-hidden="true" />
          {s.label}
        </li>
      ))}
    </ul>
  );
}

export function BarTable({ chart, label }: { chart: BarChart; label: string }) {
  return (
    <table className="chart-table" data-testid={`table-${chart.id}`}>
      <thead>
        <tr>
          <th scope="col">{label}</th>
          {chart.series.length > 1 &&
            chart.series.map((s) => (
              <th key={s.key} scope="col">
                {s.label}
              </th>
            ))}
          <th scope="col">{chart.series.length > 1 ? 'Total' : chart.series[0]?.label}</th>
          <th scope="col">Records</th>
        </tr>
      </thead>
      <tbody>
        {chart.bars.map((bar) => (
          <tr key={bar.key}>
            <th scope="row">{bar.label}</th>
            {chart.series.length > 1 && bar.values.map((v, i) => <td key={chart.series[i]!.key}>{formatValue(v, chart.unit)}</td>)}
            <td>{formatValue(barTotal(bar), chart.unit)}</td>
            <td>
              <RecordLinks seqs={bar.seqs} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

interface CardProps {
  readonly id: string;
  readonly title: string;
  /** One sentence: what the chart shows, where its numbers come from. */
  readonly about: string;
  /** What fills it, when there is nothing to draw (null: there is). */
  readonly empty: string | null;
  readonly legend?: readonly Series[];
  readonly chart: ReactNode;
  readonly table: ReactNode;
}

export function ChartCard({ id, title, about, empty, legend, chart, table }: CardProps) {
  const [asTable, setAsTable] = useState(false);
  const headingId = `metrics-${id}-title`;
  return (
    <section className="chart-card" aria-labelledby={headingId} data-testid={`card-${id}`}>
      <header className="chart-card-head">
        <h2 id={headingId}>{title}</h2>
        {empty === null && (
          <button type="button" className="button button-quiet" aria-pressed={asTable} onClick={() => setAsTable(!asTable)} data-testid={`toggle-${id}`}>
            {asTable ? 'Show chart' : 'Show table'}
          </button>
        )}
      </header>
      <p className="chart-about">{about}</p>
      {empty !== null ? (
        <p className="chart-empty" data-testid={`empty-${id}`}>
          Not recorded: {empty}
        </p>
      ) : asTable ? (
        table
      ) : (
        <>
          {legend && <Legend series={legend} />}
          {chart}
        </>
      )}
    </section>
  );
}
