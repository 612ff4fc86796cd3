/**
 * Metrics: how the work is going, from the ledger. The figures are main's fold (`metrics:get`,
 * shared/metrics.ts), the numbers `baton metrics` prints; the charts are hand-written SVG (no
 * charting library: see docs/metrics.md), each with a table view, every point and row a link to
 * its records on the Evidence screen.
 */
import { useState } from 'react';
import type { FeatureMetrics, Totals } from '../../../shared/metrics';
import type { FeatureLinks } from '../../../shared/metrics/screen';
import { ErrorBanner } from '../components/error-banner';
import { BarChartSvg } from './bar-chart';
import { BurnUpSvg } from './burn-up-chart';
import { agentCharts, burnUpChart, costChart, cycleTimeChart, formatValue, gateChart, storyChart, type BarChart } from './chart-data';
import { BarTable, ChartCard, RecordLinks } from './chart-card';
import { SmellList } from './smell-list';
import { useMetrics } from './use-metrics';

function Figure({ id, label, value }: { id: string; label: string; value: string }) {
  return (
    <div className="metric-figure" data-testid={`figure-${id}`}>
      <dt>{label}</dt>
      <dd data-testid={`figure-${id}-value`}>{value}</dd>
    </div>
  );
}

function Figures({ totals, waitingMs }: { totals: Totals; waitingMs: number | null }) {
  const rate = totals.firstPassGreenRate;
  return (
    <dl className="metric-figures" aria-label="Totals">
      <Figure id="done" label="Items done" value={`${totals.done} of ${totals.items}`} />
      <Figure id="cycle-time" label="Cycle time" value={formatValue(totals.cycleTimeMs, 'ms')} />
      <Figure id="agent-time" label="Agent time" value={formatValue(totals.agentMs, 'ms')} />
      <Figure id="test-time" label="Test runs" value={formatValue(totals.testRunMs, 'ms')} />
      <Figure id="waiting" label="Waiting for a person" value={formatValue(waitingMs, 'ms')} />
      <Figure id="first-pass" label="First-pass GREEN" value={rate === null ? 'not recorded' : `${Math.round(rate * 100)}%`} />
      <Figure id="repairs" label="Repairs" value={formatValue(totals.counts?.repairs ?? null, 'count')} />
      <Figure id="violations" label="Violations" value={formatValue(totals.counts?.violations ?? null, 'count')} />
      <Figure id="cost" label="Cost" value={formatValue(totals.usage.costUsd, 'usd')} />
    </dl>
  );
}

/** A bar chart's card: empty (with what fills it) when no bar has a recorded value. */
function BarCard({ chart, title, about, label, empty }: { chart: BarChart; title: string; about: string; label: string; empty: string }) {
  const nothing = chart.bars.length === 0;
  return (
    <ChartCard
      id={chart.id}
      title={title}
      about={about}
      empty={nothing ? empty : null}
      legend={chart.series.length > 1 ? chart.series : undefined}
      chart={<BarChartSvg chart={chart} title={title} />}
      table={<BarTable chart={chart} label={label} />}
    />
  );
}

function BurnUpTable({ links }: { links: FeatureLinks }) {
  return (
    <table className="chart-table" data-testid="table-burn-up">
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Started</th>
          <th scope="col">GREEN</th>
          <th scope="col">Done</th>
          <th scope="col">Scope</th>
          <th scope="col">Record</th>
        </tr>
      </thead>
      <tbody>
        {links.burnUp.map((p) => (
          <tr key={p.seq}>
            <th scope="row">{new Date(p.at).toLocaleString()}</th>
            <td>{p.started}</td>
            <td>{p.green}</td>
            <td>{p.done}</td>
            <td>{p.scope}</td>
            <td>
              <RecordLinks seqs={[p.seq]} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function FeatureCharts({ f, links }: { f: FeatureMetrics; links: FeatureLinks }) {
  const agents = agentCharts(f.totals.usageByAgent, [links]);
  return (
    <div className="chart-grid">
      <BarCard
        chart={cycleTimeChart(f, links)}
        title="Cycle time per item"
        about="Time in each step of the item's cycles (GREEN includes its repairs); the bar opens the item's first record."
        label="Item"
        empty="the test list has no items yet."
      />
      <ChartCard
        id="burn-up"
        title="Items by status over time"
        about="A burn-up: items started, GREEN and done after each record that moved one, against the test list's size."
        empty={links.burnUp.length === 0 ? 'no item has started a cycle yet; a run writes these records.' : null}
        legend={burnUpChart(links).series}
        chart={<BurnUpSvg data={burnUpChart(links)} title="Items by status over time" />}
        table={<BurnUpTable links={links} />}
      />
      <BarCard
        chart={storyChart(f, links)}
        title="Repairs and violations per story"
        about="GREEN attempts after the first, and turns that changed locked files (reverted), over the story's items."
        label="Story"
        empty="no story has items yet."
      />
      <BarCard
        chart={gateChart(f, links)}
        title="Approval latency per gate"
        about="From the gate becoming decidable to the decision, as the deciding screen recorded it (a CLI decision records no wait)."
        label="Gate"
        empty="no gate has been decided yet."
      />
      <BarCard
        chart={costChart(f, links)}
        title="Cost per accepted story"
        about="The cost the agents reported for the story's turns, for each story whose acceptance gate is approved."
        label="Story"
        empty="no story has been accepted yet."
      />
      <ChartCard
        id="agents"
        title="Agent hosts side by side"
        about="Each host and model on the same measures: turns, tokens and cost, as the agents reported them."
        empty={agents[0]!.bars.length === 0 ? 'no agent turn reported its host and usage (a scripted agent reports none).' : null}
        chart={agents.map((chart) => (
          <div key={chart.id}>
            <h3 className="chart-subtitle">{chart.series[0]!.label}</h3>
            <BarChartSvg chart={chart} title={chart.series[0]!.label} />
          </div>
        ))}
        table={agents.map((chart) => (
          <BarTable key={chart.id} chart={chart} label="Host/model" />
        ))}
      />
    </div>
  );
}

export function MetricsView() {
  const { metrics, error, loading } = useMetrics();
  const [chosen, setChosen] = useState<string | null>(null);
  if (error) return <ErrorBanner error={error} title="The metrics cannot be shown" />;
  if (loading || !metrics)
    return (
      <p className="muted" aria-busy="true">
        Folding the ledger…
      </p>
    );
  if (metrics.features.length === 0)
    return (
      <div className="empty-state" data-testid="metrics-empty">
        <p>No feature yet: metrics appear once a feature has a test list and a run records its cycles.</p>
      </div>
    );
  const index = Math.max(
    0,
    metrics.features.findIndex((f) => f.feature === chosen),
  );
  const f = metrics.features[index]!;
  const links = metrics.links[index]!;
  const smells = metrics.smells.filter((s) => s.subject.feature === f.feature);
  return (
    <div className="metrics-view" data-testid="metrics-view">
      <header className="metrics-head">
        <h1>Metrics</h1>
        <label>
          Feature{' '}
          <select value={f.feature} onChange={(e) => setChosen(e.target.value)} data-testid="metrics-feature">
            {metrics.features.map((m) => (
              <option key={m.feature} value={m.feature}>
                {m.feature}
              </option>
            ))}
          </select>
        </label>
      </header>
      {!metrics.chainOk && (
        <p className="metrics-warning" role="alert">
          The ledger&apos;s chain does not verify: these figures may rest on altered records. Open Evidence to see where it breaks.
        </p>
      )}
      {metrics.layout !== 'baton' && (
        <p className="metrics-warning">This is a {metrics.layout} project: its cycles are not in a Baton ledger, so its cycle figures are not recorded.</p>
      )}
      <Figures totals={f.totals} waitingMs={f.waitingForPersonMs} />
      <FeatureCharts f={f} links={links} />
      <SmellList smells={smells} problem={metrics.smellsProblem} />
    </div>
  );
}
