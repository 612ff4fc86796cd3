/**
 * architecture.json rendered: layers, non-functional requirements with their fitness checks and
 * persistence invariants; for older files style, components, decisions and testing. Each section
 * present is shown, in that order, under its heading.
 */
import { entryMark, fieldMark, markOf, type Against, type Side } from './compare';
import type { ArchitectureDoc, Component, Decision, Invariant, Layer, NonFunctional } from './parse-design';
import { ChangeMark, markClass, None, orDash, Section } from './parts';

interface ColumnSpec<T> {
  readonly header: string;
  readonly cell: (row: T) => string | null;
  readonly mono?: boolean;
}

/** A small table of entries, each row marked against the other version's entry of the same key. */
export function EntryTable<T>({
  label,
  rows,
  columns,
  rowKey,
  others,
  side,
}: {
  label: string;
  rows: readonly T[];
  columns: readonly ColumnSpec<T>[];
  rowKey: (row: T) => string | null;
  others?: readonly T[] | null;
  side?: Side;
}) {
  return (
    <table className="table rendered-table" aria-label={label}>
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c.header} scope="col">
              {c.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, i) => {
          const mark = entryMark(row, others, rowKey, side);
          return (
            <tr key={`${rowKey(row) ?? ''}-${i}`} className={markClass(mark)}>
              {columns.map((c, j) => (
                <td key={c.header} className={c.mono ? 'mono' : undefined}>
                  {orDash(c.cell(row))}
                  {j === 0 && <ChangeMark mark={mark} />}
                </td>
              ))}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

const byName = (e: { name: string | null }) => e.name;
const byId = (e: { id: string | null }) => e.id;

export function ArchitectureView({ doc, against }: { doc: ArchitectureDoc; against?: Against<ArchitectureDoc> }) {
  const other = against?.other;
  const side = against?.side;
  // A section the other version lacks is new (or removed); a list section's rows say what changed in it.
  const mark = (key: keyof ArchitectureDoc) => {
    if (!against) return null;
    if (against.other[key] === null) return markOf(doc[key], undefined, against.side);
    return Array.isArray(doc[key]) ? null : fieldMark(doc, key, against);
  };
  return (
    <div className="rendered-doc">
      {doc.feature && <p className="muted">Architecture of {doc.feature}</p>}
      {doc.layers && (
        <Section title="Layers" mark={mark('layers')}>
          {doc.layers.length === 0 ? (
            <None what="layers" />
          ) : (
            <EntryTable<Layer>
              label="Layers"
              rows={doc.layers}
              rowKey={byName}
              others={other?.layers}
              side={side}
              columns={[
                { header: 'Layer', cell: (l) => l.name },
                { header: 'Responsibility', cell: (l) => l.responsibility },
              ]}
            />
          )}
        </Section>
      )}
      {doc.nonFunctional && (
        <Section title="Non-functional requirements" mark={mark('nonFunctional')}>
          {doc.nonFunctional.length === 0 ? (
            <None what="non-functional requirements" />
          ) : (
            <EntryTable<NonFunctional>
              label="Non-functional requirements"
              rows={doc.nonFunctional}
              rowKey={byId}
              others={other?.nonFunctional}
              side={side}
              columns={[
                { header: 'ID', cell: (n) => n.id, mono: true },
                { header: 'Requirement', cell: (n) => n.requirement },
                { header: 'Fitness check', cell: (n) => n.fitnessCheck },
              ]}
            />
          )}
        </Section>
      )}
      {doc.invariants && (
        <Section title="Persistence invariants" mark={mark('invariants')}>
          {doc.invariants.length === 0 ? (
            <None what="persistence invariants" />
          ) : (
            <EntryTable<Invariant>
              label="Persistence invariants"
              rows={doc.invariants}
              rowKey={byId}
              others={other?.invariants}
              side={side}
              columns={[
                { header: 'ID', cell: (n) => n.id, mono: true },
                { header: 'Statement', cell: (n) => n.statement },
              ]}
            />
          )}
        </Section>
      )}
      {doc.style !== null && (
        <Section title="Style" mark={mark('style')}>
          <p className="rendered-prose">{doc.style}</p>
        </Section>
      )}
      {doc.components && (
        <Section title="Components" mark={mark('components')}>
          {doc.components.length === 0 ? (
            <None what="components" />
          ) : (
            <EntryTable<Component>
              label="Components"
              rows={doc.components}
              rowKey={byName}
              others={other?.components}
              side={side}
              columns={[
                { header: 'Component', cell: (c) => c.name, mono: true },
                { header: 'Role', cell: (c) => c.role },
              ]}
            />
          )}
        </Section>
      )}
      {doc.decisions && (
        <Section title="Decisions" mark={mark('decisions')}>
          {doc.decisions.length === 0 ? <None what="decisions" /> : <Decisions decisions={doc.decisions} others={other?.decisions} side={side} />}
        </Section>
      )}
      {doc.testing !== null && (
        <Section title="Testing" mark={mark('testing')}>
          <p className="rendered-prose">{doc.testing}</p>
        </Section>
      )}
    </div>
  );
}

function Decisions({ decisions, others, side }: { decisions: readonly Decision[]; others?: readonly Decision[] | null; side?: Side }) {
  return (
    <ol className="rendered-list">
      {decisions.map((d, i) => {
        const mark = entryMark(d, others, byId, side);
        return (
          <li key={`${d.id ?? ''}-${i}`} className={markClass(mark)}>
            {d.id && <span className="mono muted">{d.id}</span>} {orDash(d.text)} <ChangeMark mark={mark} />
          </li>
        );
      })}
    </ol>
  );
}
