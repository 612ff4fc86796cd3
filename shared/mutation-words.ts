/** How an item's mutation score reads, the same in the Inbox, the drawer and the terminal. */
import type { MutationProof, SurvivedMutant } from './ledger';
import type { RECORD_TYPES, TypedRecord } from './records';

const percent = (n: number) => `${Math.round(n * 100)}%`;

/** "mutation 83% (10 of 12 killed)", or why there is no score. */
export function mutationLine(m: MutationProof): string {
  if (m.score === null) return m.tested === 0 ? 'mutation: no mutant in its changed code' : `mutation: none of ${m.tested} mutants could be judged`;
  const round = m.strengthened ? `, ${m.strengthened.killed} by the strengthening round` : '';
  const short = m.strengthened?.why && m.weak ? `; strengthening round: ${m.strengthened.why}` : '';
  return `mutation ${percent(m.score)} (${m.killed} of ${m.killed + m.survived.length} killed${round}${m.weak ? `, below ${percent(m.minScore)}` : ''})${short}${replacedLine(m)}`;
}

/** "; before amendment #12: 100% (weaker now)" — the old and the new tests' scores side by side. */
const replacedLine = (m: MutationProof): string =>
  m.replaced
    ? `; before amendment #${m.replaced.amendmentSeq}: ${m.replaced.score === null ? 'no score' : percent(m.replaced.score)}${m.replaced.weaker ? ' (weaker now)' : ''}`
    : '';

/** `src/stock.js:4:9 boundary: < → <=` */
export const survivedLine = (s: SurvivedMutant): string => `${s.file}:${s.line}:${s.column} ${s.operator}: ${oneLine(s.original)} → ${oneLine(s.replacement)}`;

const oneLine = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 60 ? `${flat.slice(0, 57)}…` : flat || '(empty)';
};

/** An item's mutation score as its `cycle.mutated` record says (undefined: none recorded). */
export const mutationProof = (r: TypedRecord<typeof RECORD_TYPES.cycleMutated> | undefined): MutationProof | null =>
  r
    ? {
        seq: r.seq,
        hash: r.hash,
        at: r.at,
        score: r.data.score,
        minScore: r.data.minScore,
        tested: r.data.tested,
        killed: r.data.killed,
        survived: r.data.survived.map(({ file, line, column, operator, original, replacement }) => ({ file, line, column, operator, original, replacement })),
        weak: r.data.score !== null && r.data.score < r.data.minScore,
        ...(r.data.strengthened
          ? { strengthened: { killed: r.data.strengthened.killed.length, kept: r.data.strengthened.kept, why: r.data.strengthened.why } }
          : {}),
      }
    : null;
