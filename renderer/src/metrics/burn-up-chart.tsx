/**
 * The burn-up in plain SVG: started, GREEN and done items as step lines against the feature's scope,
 * each step a point linking to the record that made it (`#/evidence/<seq>`). Colours are classes
 * (styles/metrics.css), so the CSP holds and both themes read.
 */
import { hrefForRecord } from '../store/hash-route';
import { niceMax, type burnUpChart } from './chart-data';

const WIDTH = 640;
const HEIGHT = 220;
const LEFT = 36;
const RIGHT = 12;
const TOP = 20;
const BOTTOM = 24;

export function BurnUpSvg({ data, title }: { data: ReturnType<typeof burnUpChart>; title: string }) {
  const max = niceMax(Math.max(data.scope, ...data.series.flatMap((s) => s.points.map((p) => p.y))));
  const px = (x: number) => LEFT + x * (WIDTH - LEFT - RIGHT);
  const py = (y: number) => TOP + (1 - y / max) * (HEIGHT - TOP - BOTTOM);
  const count = data.series.reduce((n, s) => n + s.points.length, 0);
  return (
    <svg
      className="chart"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-label={`${title}: ${count} points`}
      data-testid="chart-burn-up"
      data-points={count}
    >
      {[0, max / 2, max].map((t) => (
        <g key={t} className="chart-tick">
          <line x1={LEFT} x2={WIDTH - RIGHT} y1={py(t)} y2={py(t)} />
          <text x={LEFT - 6} y={py(t) + 4} textAnchor="end">
            {t}
          </text>
        </g>
      ))}
      {data.scope > 0 && (
        <g className="chart-scope">
          <line x1={LEFT} x2={WIDTH - RIGHT} y1={py(data.scope)} y2={py(data.scope)} />
          <text x={WIDTH - RIGHT} y={py(data.scope) - 4} textAnchor="end">
            scope {data.scope}
          </text>
        </g>
      )}
      <text className="chart-axis-note" x={LEFT} y={HEIGHT - 6}>
        first step
      </text>
      <text className="chart-axis-note" x={WIDTH - RIGHT} y={HEIGHT - 6} textAnchor="end">
        latest
      </text>
      {data.series.map((s) => {
        // A step line: flat until the next record, then up.
        const path = s.points.map((p, i) => `${i === 0 ? 'M' : 'H'}${px(p.x)}${i === 0 ? ` ${py(p.y)}` : ` V${py(p.y)}`}`).join(' ');
        return (
          <g key={s.key} className={`chart-line tone-${s.tone}`}>
            <path d={path} />
            {s.points.map((p) => (
              <a key={p.seq} href={hrefForRecord(p.seq)} aria-label={`${s.label}: ${p.y} at ${p.at} (record #${p.seq})`} data-testid="chart-point">
                <circle cx={px(p.x)} cy={py(p.y)} r={3.5}>
                  <title>{`${s.label}: ${p.y} — record #${p.seq}`}</title>
                </circle>
              </a>
            ))}
          </g>
        );
      })}
    </svg>
  );
}
