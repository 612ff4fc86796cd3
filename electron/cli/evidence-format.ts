/** An evidence summary for a terminal: each AC with the items that cover it and the GREEN record that proves each. */
import type { EvidenceSummary } from '../../shared/ledger';
import { mutationLine, survivedLine } from '../../shared/mutation-words';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function formatEvidence(summary: EvidenceSummary, indent = ''): string {
  const statuses = Object.entries(summary.byStatus)
    .map(([status, n]) => `${n} ${status}`)
    .join(', ');
  const ledger = summary.source === 'ledger';
  const from = ledger ? 'from the ledger' : "from the project's own files, no Baton ledger";
  const counts = [
    plural(summary.cycles, 'cycle'),
    // Counts a foreign project does not record are left out, never shown as zero.
    summary.repairs === null ? null : plural(summary.repairs, 'repair'),
    summary.violations === null ? null : plural(summary.violations, 'lock violation'),
    summary.rejectedRed === null ? null : plural(summary.rejectedRed, 'rejected RED', 'rejected REDs'),
    summary.escalations ? `${plural(summary.escalations, 'escalation')} waiting` : null,
  ].filter((part): part is string => part !== null);
  const lines = [`${indent}Evidence (${from}): ${plural(summary.testItems, 'item')}${statuses ? ` (${statuses})` : ''} · ${counts.join(' · ')}`];
  if (summary.acs.length) {
    const proven = summary.acs.filter((ac) => ac.proven).length;
    lines.push(`${indent}Acceptance criteria: ${proven} of ${summary.acs.length} ${ledger ? 'proven by GREEN records' : 'green by its test list'}`);
    for (const ac of summary.acs) {
      lines.push(
        `${indent}  ${ac.proven ? '✓' : '·'} ${ac.storyId ? `${ac.storyId}/` : ''}${ac.id}${ac.title ? ` ${ac.title}` : ''}${ac.items.length ? '' : ' — no test covers it'}`,
      );
      for (const id of ac.items) {
        const item = summary.items.find((i) => i.id === id);
        if (!item) continue;
        const proof = item.green
          ? `GREEN record #${item.green.seq} (${item.green.hash.slice(0, 12)}…${item.green.commit ? `, commit ${item.green.commit.slice(0, 10)}` : ''})`
          : summary.source === 'ledger'
            ? 'no GREEN record'
            : '';
        lines.push(`${indent}      ${item.id} ${item.status}${proof ? ` · ${proof}` : ''}${item.mutation ? ` · ${mutationLine(item.mutation)}` : ''}`);
        for (const s of item.mutation?.survived ?? []) lines.push(`${indent}        survived: ${survivedLine(s)}`);
      }
    }
  }
  for (const d of summary.dependencies)
    lines.push(`${indent}Dependency added: ${d.name}@${d.spec} (${d.version}${d.dev ? ', dev' : ''}) for ${d.item} · record #${d.record.seq}`);
  return lines.join('\n');
}
