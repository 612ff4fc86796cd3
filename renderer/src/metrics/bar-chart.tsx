/**
 * A horizontal, stacked bar chart in plain SVG: one row a bar, its label on the left, each recorded
 * value a segment linking to its record (`#/evidence/<seq>`), a value that is not recorded written
 * as such. Colours come from classes in styles/metrics.css (theme variables), never inline styles,
 * so the strict CSP holds and the chart follows light and dark themes.
 */
import { hrefForRecord } from '../store/hash-route';
import { barTotal, formatValue, niceMax, NOT_RECORDED, type BarChart } from './chart-data';

const WIDTH = 640;
const LABEL = 150;
const VALUE = 90;
const ROW = 22;
const BAR = 14;
const AXIS = 20;

export function BarChartSvg({ chart, title }: { chart: BarChart; title: string }) {
  const plot = WIDTH - LABEL - VALUE;
  const max = niceMax(Math.max(0, ...chart.bars.map((b) => barTotal(b) ?? 0)));
  const height = chart.bars.length * ROW + AXIS;
  const x = (v: number) => (v / max) * plot;
  const ticks = [0, max / 2, max];
  return (
    <svg
      className="chart"
      viewBox={`0 0 ${WIDTH} ${height}`}
      role="img"
      aria-label={`${title}: ${chart.bars.length} bars`}
      data-testid={`chart-${chart.id}`}
      data-points={chart.bars.filter((b) => barTotal(b) !== null).length}
    >
      {ticks.map((t) => (
        <g key={t} className="chart-tick">
          <line x1={LABEL + x(t)} x2={LABEL + x(t)} y1={0} y2={height - AXIS} />
          <text x={LABEL + x(t)} y={height - 6} textAnchor={t === 0 ? 'start' : t === max ? 'end' : 'middle'}>
            {formatValue(t, chart.unit)}
          </text>
        </g>
      ))}
      {chart.bars.map((bar, row) => {
        const y = row * ROW + (ROW - BAR) / 2;
        const total = barTotal(bar);
        let start = 0;
        const segments = bar.values.map((value, i) => {
          const series = chart.series[i]!;
          if (value === null) return null;
          const from = start;
          start += value;
          const words = `${bar.label} ${series.label}: ${formatValue(value, chart.unit)}`;
          const rect = (
            <rect className={`chart-bar tone-${series.tone}`} x={LABEL + x(from)} y={y} width={Math.max(x(value), 1)} height={BAR}>
              <title>{words}</title>
            </rect>
          );
          return bar.seq === null ? (
            <g key={series.key}>{rect}</g>
          ) : (
            <a key={series.key} href={hrefForRecord(bar.seq)} aria-label={`${words} (record #${bar.seq})`} data-testid="chart-point">
              {rect}
            </a>
          );
        });
        return (
          <g key={bar.key} data-bar={bar.key}>
            <text className="chart-label" x={LABEL - 8} y={y + BAR - 3} textAnchor="end">
              {bar.label.length > 20 ? `${bar.label.slice(0, 19)}…` : bar.label}
            </text>
            {segments}
            <text className={total === null ? 'chart-value chart-none' : 'chart-value'} x={WIDTH - 4} y={y + BAR - 3} textAnchor="end">
              {total === null ? NOT_RECORDED : formatValue(total, chart.unit)}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
