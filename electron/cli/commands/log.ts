/** `baton log <dir> [--json]`: the ledger, one record a line. */
import type { LedgerRecord } from '../../../shared/ledger';
import { flag, JSON_OPTION, onePath, type Command } from '../command';
import { EXIT } from '../exit-codes';
import { printJson } from '../io';
import { withProject } from '../open-project';
import { table } from '../table';

const subjectOf = (r: LedgerRecord) => [r.subject.feature, r.subject.story, r.subject.item, r.subject.gate, r.subject.cycle].filter(Boolean).join('/') || '-';

export const logCommand: Command = {
  name: 'log',
  synopsis: 'log <dir|bundle> [--json]',
  summary: 'The ledger, readable: every transition, verdict, approval and violation',
  options: JSON_OPTION,
  async run(positionals, values, io) {
    const json = flag(values, 'json');
    return withProject(onePath(positionals, this.synopsis), json, io, async (workbench) => {
      const page = await workbench.ledgerPage(0, Number.MAX_SAFE_INTEGER);
      if (!page.ok) return EXIT.problems;
      const { records, chain } = page.value;
      if (json) printJson(io, { records, chain });
      else if (records.length === 0) io.out('The ledger is empty: records appear when gates are decided or cycles run.');
      else {
        const rows = records.map((r) => [
          `#${r.seq}`,
          r.at,
          r.type,
          `${r.actor.kind}:${r.actor.id}`,
          subjectOf(r),
          r.blobs.length ? `${r.blobs.length} blob${r.blobs.length === 1 ? '' : 's'}` : '',
        ]);
        io.out(table(['seq', 'at', 'type', 'actor', 'subject', 'blobs'], rows));
        if (!chain.ok) io.out(`\nThe chain is broken at record #${chain.brokenAt}: run \`baton verify\` for details.`);
      }
      return chain.ok ? EXIT.ok : EXIT.problems;
    });
  },
};
