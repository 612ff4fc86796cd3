/** db-design.json (one table per database table, then the migrations) and ux-guide.json (each screen's states) rendered. */
import { EntryTable } from './architecture-view';
import { entryMark, markOf, type Against, type Side } from './compare';
import type { Column, DbDesignDoc, Migration, Screen, ScreenState, Table, UxGuideDoc } from './parse-design';
import { ChangeMark, markClass, None, orDash, Section } from './parts';

const byName = (e: { name: string | null }) => e.name;
const counterpartOf = <T extends { name: string | null }>(entry: T, others: readonly T[] | null | undefined): T | undefined =>
  entry.name === null ? undefined : others?.find((o) => o.name === entry.name);

function DbTable({ table, other, side }: { table: Table; other?: readonly Table[]; side?: Side }) {
  const counterpart = counterpartOf(table, other);
  // A table the other version lacks is new (or removed) as a whole; otherwise its rows say what changed.
  const mark = side && !counterpart ? markOf(table, undefined, side) : null;
  const constraintsMark = side && counterpart ? markOf(table.constraints, counterpart.constraints, side) : null;
  return (
    <section className={markClass(mark, 'rendered-db-table')} aria-label={`Table ${orDash(table.name)}`}>
      <h5 className="rendered-section-title">
        Table <span className="mono">{orDash(table.name)}</span> <ChangeMark mark={mark} />
      </h5>
      {table.columns.length === 0 ? (
        <None what="columns" />
      ) : (
        <EntryTable<Column>
          label={`Columns of ${orDash(table.name)}`}
          rows={table.columns}
          rowKey={byName}
          others={counterpart?.columns}
          side={counterpart ? side : undefined}
          columns={[
            { header: 'Column', cell: (c) => c.name, mono: true },
            { header: 'Type', cell: (c) => c.type, mono: true },
            { header: 'Constraints', cell: (c) => (c.constraints.length > 0 ? c.constraints.join(', ') : null) },
          ]}
        />
      )}
      {table.constraints.length > 0 && (
        <p className={markClass(constraintsMark, 'rendered-prose')}>
          <span className="lead-word">Table constraints:</span> <span className="mono">{table.constraints.join('; ')}</span>{' '}
          <ChangeMark mark={constraintsMark} />
        </p>
      )}
    </section>
  );
}

export function DbDesignView({ doc, against }: { doc: DbDesignDoc; against?: Against<DbDesignDoc> }) {
  const side = against?.side;
  const migrationsMark = against && against.other.migrations === null && doc.migrations !== null ? markOf(doc.migrations, undefined, against.side) : null;
  return (
    <div className="rendered-doc">
      {doc.feature && <p className="muted">Database design of {doc.feature}</p>}
      {doc.tables.length === 0 ? (
        <None what="tables" />
      ) : (
        doc.tables.map((t, i) => <DbTable key={`${t.name ?? ''}-${i}`} table={t} other={against?.other.tables} side={side} />)
      )}
      {doc.migrations && (
        <Section title="Migrations" mark={migrationsMark}>
          {doc.migrations.length === 0 ? (
            <None what="migrations" />
          ) : (
            <ol className="rendered-list">
              {doc.migrations.map((m, i) => {
                const mark = entryMark<Migration>(m, against?.other.migrations, byName, side);
                return (
                  <li key={`${m.name ?? ''}-${i}`} className={markClass(mark)}>
                    <span className="mono">{orDash(m.name)}</span>
                    {m.purpose && <> — {m.purpose}</>} <ChangeMark mark={mark} />
                  </li>
                );
              })}
            </ol>
          )}
        </Section>
      )}
    </div>
  );
}

function ScreenBlock({ screen, other, side }: { screen: Screen; other?: readonly Screen[]; side?: Side }) {
  const counterpart = counterpartOf(screen, other);
  const mark = side && !counterpart ? markOf(screen, undefined, side) : null;
  return (
    <Section title={`Screen: ${orDash(screen.name)}`} mark={mark}>
      {screen.states.length === 0 ? (
        <None what="states" />
      ) : (
        <ul className="rendered-list rendered-states">
          {screen.states.map((state, i) => {
            const stateMark = counterpart ? entryMark<ScreenState>(state, counterpart.states, byName, side) : null;
            return (
              <li key={`${state.name ?? ''}-${i}`} className={markClass(stateMark)}>
                <span className="lead-word">{orDash(state.name)}</span>
                {state.shows && <> — {state.shows}</>} <ChangeMark mark={stateMark} />
              </li>
            );
          })}
        </ul>
      )}
    </Section>
  );
}

export function UxGuideView({ doc, against }: { doc: UxGuideDoc; against?: Against<UxGuideDoc> }) {
  return (
    <div className="rendered-doc">
      {doc.feature && <p className="muted">UX guide of {doc.feature}</p>}
      {doc.screens.length === 0 ? (
        <None what="screens" />
      ) : (
        doc.screens.map((s, i) => <ScreenBlock key={`${s.name ?? ''}-${i}`} screen={s} other={against?.other.screens} side={against?.side} />)
      )}
    </div>
  );
}
