/** `baton log <dir> [--json]`: the ledger, one record a line. */
import type { LedgerPage, LedgerRecord } from '../../../shared/ledger';
import type { Result } from '../../../shared/result';
import type { HostSession } from '../../core/host-session';
import { flag, JSON_OPTION, onePath, type Command } from '../command';
import { EXIT } from '../exit-codes';
import { printJson } from '../io';
import { failed, withProject } from '../open-project';
import { table } from '../table';

const subjectOf = (r: LedgerRecord) => [r.subject.feature, r.subject.story, r.subject.item, r.subject.gate, r.subject.cycle].filter(Boolean).join('/') || '-';

/** The most records `ledger:list` answers with at once. */
const PAGE = 1000;

/** Every record, page by page through `ledger:list` (the chain's state comes with each page). */
async function wholeLedger(session: HostSession): Promise<Result<LedgerPage>> {
  const first = await session.call('ledger:list', { offset: 0, limit: PAGE });
  if (!first.ok) return first;
  const records = [...first.value.records];
  while (records.length < first.value.total) {
    const next = await session.call('ledger:list', { offset: records.length, limit: PAGE });
    if (!next.ok) return next;
    if (!next.value.records.length) break;
    records.push(...next.value.records);
  }
  return { ok: true, value: { ...first.value, records } };
}

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
