/** `baton log <dir> [--json]`: the ledger, one record a line. */
import type { LedgerRecord } from '../../../shared/ledger';
import { flag, JSON_OPTION, onePath, type Command } from '../command';
import { EXIT } from '../exit-codes';
import { printJson } from '../io';
import { failed, withProject } from '../open-project';
import { table } from '../table';
import { wholeLedger } from '../whole-ledger';

const subjectOf = (r: LedgerRecord) => [r.subject.feature, r.subject.story, r.subject.item, r.subject.gate, r.subject.cycle].filter(Boolean).join('/') || '-';

export const logCommand: Command = {
  name: 'log',
  synopsis: 'log <dir|bundle> [--json]',
  summary: 'The ledger, readable: every transition, verdict, approval and violation',
  options: JSON_OPTION,
  async run(positionals, values, io) {
    const json = flag(values, 'json');
    return withProject(onePath(positionals, this.synopsis), json, io, async (session) => {
      const page = await wholeLedger(session);
      if (!page.ok) return failed(io, page.error, json);
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
