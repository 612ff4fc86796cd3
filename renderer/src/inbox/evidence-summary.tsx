/**
 * What backs the decision, as the ledger records it: the items by status, cycles, repairs,
 * violations and escalations, and every acceptance criterion with the items that cover it — each
 * item's status and the orchestrator's GREEN record that proves it, one click from the record.
 */
import type { AcProof, EvidenceSummary as Summary, ItemProof } from '../../../shared/ledger';
import { TEST_STATUSES } from '../../../shared/model';
import { mutationLine, survivedLine } from '../../../shared/mutation-words';
import { Badge, TestStatusBadge } from '../components/status-badge';
import { friendlyTime } from '../lib/format';
import { hrefForRecord } from '../store/hash-route';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function Counters({ summary }: { summary: Summary }) {
  // A foreign project records no repairs or violations: those are left out, never shown as zero.
  const parts = [
    plural(summary.cycles, 'cycle'),
    summary.repairs === null ? null : plural(summary.repairs, 'repair'),
    summary.violations === null ? null : plural(summary.violations, 'lock violation'),
    summary.rejectedRed === null ? null : plural(summary.rejectedRed, 'rejected RED', 'rejected REDs'),
  ].filter((part): part is string => part !== null);
  return <span data-testid="evidence-counters">{parts.join(' · ')}</span>;
}

function ItemRow({ item, ledger }: { item: ItemProof; ledger: boolean }) {
  return (
    <li className="proof-item" data-testid={`proof-item-${item.id}`} data-status={item.status}>
      <span className="mono proof-item-id">{item.id}</span>
      <TestStatusBadge status={item.status} />
      <span className="proof-item-description">{item.description || <span className="muted">no description</span>}</span>
      {item.green ? (
        <a className="proof-link" href={hrefForRecord(item.green.seq)} data-testid={`proof-green-${item.id}`} title={`cycle.greened ${item.green.hash}`}>
          GREEN record #{item.green.seq}
          {item.green.commit && <span className="mono muted"> · commit {item.green.commit.slice(0, 10)}</span>}
        </a>
      ) : (
        <span className="muted proof-none">{ledger ? 'no GREEN record' : 'no Baton record (its tool keeps none)'}</span>
      )}
      {item.mutation && (
        <a
          className="proof-link"
          href={hrefForRecord(item.mutation.seq)}
          data-testid={`proof-mutation-${item.id}`}
          data-weak={item.mutation.weak}
          title={[
            `Mutation testing of its GREEN: ${mutationLine(item.mutation)}. Record #${item.mutation.seq}.`,
            ...item.mutation.survived.map((m) => `survived: ${survivedLine(m)}`),
          ].join('\n')}
        >
          <Badge
            look={item.mutation.weak ? { icon: 'unknown', tone: 'warning' } : { icon: 'green', tone: 'success' }}
            word={item.mutation.score === null ? 'no mutants' : `mutation ${Math.round(item.mutation.score * 100)}%`}
          />
        </a>
      )}
      {item.unsandboxedRuns && item.unsandboxedRuns.length > 0 && (
        <a
          className="proof-link"
          href={hrefForRecord(item.unsandboxedRuns.at(-1)!.seq)}
          data-testid={`proof-unsandboxed-${item.id}`}
          title={`${plural(item.unsandboxedRuns.length, 'test run')} behind this item's verdicts ran without the sandbox: the code under test could read your files and reach the network. The last one is record #${item.unsandboxedRuns.at(-1)!.seq}.`}
        >
          <Badge look={{ icon: 'unknown', tone: 'warning' }} word="unsandboxed" />
        </a>
      )}
    </li>
  );
}

function AcRow({ ac, items, ledger }: { ac: AcProof; items: readonly ItemProof[]; ledger: boolean }) {
  const covering = items.filter((i) => ac.items.includes(i.id));
  const look = ac.proven
    ? { icon: 'green' as const, tone: 'success' as const }
    : covering.length === 0
      ? { icon: 'unknown' as const, tone: 'warning' as const }
      : { icon: 'pending' as const, tone: 'neutral' as const };
  // Only the ledger proves; a foreign project's test list only says.
  const word =
    covering.length === 0 ? 'no test covers it' : ledger ? (ac.proven ? 'proven' : 'not proven yet') : ac.proven ? 'green in its test list' : 'not green yet';
  return (
    <li className="proof-ac" data-testid={`proof-ac-${ac.id}`} data-proven={ac.proven}>
      <div className="proof-ac-head">
        <span className="mono">{ac.id}</span>
        {ac.title && <span className="proof-ac-title">{ac.title}</span>}
        <Badge look={look} word={word} />
      </div>
      {covering.length > 0 && (
        <ul className="proof-items" role="list" aria-label={`Items covering ${ac.id}`}>
          {covering.map((item) => (
            <ItemRow key={item.id} item={item} ledger={ledger} />
          ))}
        </ul>
      )}
    </li>
  );
}

export function EvidenceSummary({ summary }: { summary: Summary }) {
  const last = summary.lastRecordAt ? friendlyTime(summary.lastRecordAt) : null;
  const ledger = summary.source === 'ledger';
  const statuses = TEST_STATUSES.filter((s) => (summary.byStatus[s] ?? 0) > 0);
  const proven = summary.acs.filter((ac) => ac.proven).length;
  // Items with no AC of the scope (an unknown AC id) are still shown, so nothing hides.
  const unsandboxed = summary.items.filter((item) => (item.unsandboxedRuns?.length ?? 0) > 0);
  const surviving = summary.items.filter((item) => (item.mutation?.survived.length ?? 0) > 0);
  const weak = surviving.filter((item) => item.mutation?.weak);
  const orphans = summary.items.filter((item) => !summary.acs.some((ac) => ac.items.includes(item.id)));
  return (
    <section className="evidence-summary" aria-labelledby="evidence-summary-title" data-testid="evidence-summary" data-source={summary.source}>
      <h3 id="evidence-summary-title">
        Evidence summary <span className="muted">· {ledger ? 'from the ledger' : "from the project's own files"}</span>
      </h3>
      <dl className="summary-grid">
        <dt>Test items</dt>
        <dd data-testid="evidence-items">
          {summary.testItems === 0 ? (
            <span className="muted">none yet — they appear after the test_list gate</span>
          ) : (
            <span className="summary-statuses">
              <span>{summary.testItems}</span>
              {statuses.map((status) => (
                <span key={status} className="summary-status" data-testid={`evidence-status-${status}`}>
                  <TestStatusBadge status={status} /> {summary.byStatus[status]}
                </span>
              ))}
            </span>
          )}
        </dd>
        <dt>Cycles</dt>
        <dd>{summary.cycles === 0 ? <span className="muted">none run yet</span> : <Counters summary={summary} />}</dd>
        {unsandboxed.length > 0 && (
          <>
            <dt>Sandbox</dt>
            <dd data-testid="evidence-unsandboxed">
              <Badge look={{ icon: 'unknown', tone: 'warning' }} word="unsandboxed" /> {plural(unsandboxed.length, 'item')} (
              {unsandboxed.map((i) => i.id).join(', ')}) got verdicts from test runs without the sandbox: the code under test could read your files and reach
              the network there. For verdicts that hold, install bubblewrap, keep <code>"sandbox"</code> at <code>auto</code> or <code>required</code> (not{' '}
              <code>off</code>) and run again.
            </dd>
          </>
        )}
        {surviving.length > 0 && (
          <>
            <dt>Surviving mutants</dt>
            <dd data-testid="evidence-surviving-mutants">
              {weak.length > 0 && (
                <>
                  <Badge look={{ icon: 'unknown', tone: 'warning' }} word="weak tests" /> {plural(weak.length, 'item')} ({weak.map((i) => i.id).join(', ')})
                  below the project's mutation score.{' '}
                </>
              )}
              These changes to the code went through the tests unnoticed: each is a behaviour no test pins down. Ask for stronger tests (send the story back
              with a note) or accept knowing it.
              <ul className="proof-survivors" role="list">
                {surviving.flatMap((i) =>
                  i.mutation!.survived.map((m) => (
                    <li key={`${i.id}/${m.file}/${m.line}/${m.column}/${m.operator}/${m.replacement}`} className="mono">
                      {i.id} · {survivedLine(m)}
                    </li>
                  )),
                )}
              </ul>
            </dd>
          </>
        )}
        {summary.escalations > 0 && (
          <>
            <dt>Escalations</dt>
            <dd>{plural(summary.escalations, 'item')} waiting for a decision</dd>
          </>
        )}
        {summary.dependencies.length > 0 && (
          <>
            <dt>Dependencies added</dt>
            <dd data-testid="evidence-dependencies">
              <ul className="proof-dependencies" role="list">
                {summary.dependencies.map((d) => (
                  <li key={`${d.item}/${d.name}`} data-testid={`evidence-dependency-${d.name}`}>
                    <span className="mono">
                      {d.name}@{d.spec}
                    </span>{' '}
                    <span className="muted">
                      ({d.version}
                      {d.dev ? ', dev' : ''}) for {d.item} ·{' '}
                    </span>
                    <a className="proof-link" href={hrefForRecord(d.record.seq)} title={`cycle.dependencies ${d.record.hash}`}>
                      record #{d.record.seq}
                    </a>
                  </li>
                ))}
              </ul>
            </dd>
          </>
        )}
        {ledger && (
          <>
            <dt>Ledger</dt>
            <dd>
              {summary.records === 0 ? (
                <span className="muted">no records about this {summary.story ? 'story' : 'feature'} yet</span>
              ) : (
                <>
                  {plural(summary.records, 'record')}
                  {last && (
                    <span className="muted">
                      {' '}
                      · last <time dateTime={summary.lastRecordAt ?? undefined}>{last.relative}</time>
                    </span>
                  )}
                </>
              )}
            </dd>
          </>
        )}
      </dl>
      {summary.acs.length > 0 && (
        <div className="proof" data-testid="evidence-acs">
          <h4>
            Acceptance criteria{' '}
            <span className="muted">
              · {proven} of {summary.acs.length} {ledger ? 'proven' : 'green in the test list'}
            </span>
          </h4>
          <ul className="proof-acs" role="list">
            {summary.acs.map((ac) => (
              <AcRow key={`${ac.storyId}/${ac.id}`} ac={ac} items={summary.items} ledger={ledger} />
            ))}
          </ul>
        </div>
      )}
      {orphans.length > 0 && (
        <div className="proof">
          <h4>Items whose AC is not in {summary.story ? 'this story' : 'this feature'}</h4>
          <ul className="proof-items" role="list">
            {orphans.map((item) => (
              <ItemRow key={item.id} item={item} ledger={ledger} />
            ))}
          </ul>
        </div>
      )}
      {!ledger && summary.testItems > 0 && <p className="muted">Statuses are what the project's test list says; Baton ran none of these tests.</p>}
      {ledger && summary.items.some((i) => i.green) && (
        <p className="muted">A GREEN record is the orchestrator's verdict from its own run of the locked tests, with the commit it made.</p>
      )}
    </section>
  );
}
