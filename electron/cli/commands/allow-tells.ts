/**
 * `baton allow-tells`: a person allows an item's code that tells a test run apart (issue 30), with a
 * reason, through the `tells:allow` channel the inbox would use, so it is refused the same way.
 * Without --tell it allows every tell the item's violations named that is not allowed yet.
 */
import type { LedgerRecord } from '../../../shared/ledger';
import { flag, given, JSON_OPTION, list, onePath, type Command } from '../command';
import { EXIT } from '../exit-codes';
import { printJson } from '../io';
import { failed, withProject } from '../open-project';
import { approverOf, wordsRefusal } from './decide';

export const allowTellsCommand: Command = {
  name: 'allow-tells',
  synopsis: 'allow-tells <dir> --feature F --item T --reason TEXT [--tell ID ...] [--approver "Name <email>"] [--json]',
  summary: "Allow an item's code that tells a test run apart (every tell its violations named, or those --tell names), with a reason",
  options: {
    ...JSON_OPTION,
    feature: { type: 'string' },
    item: { type: 'string' },
    reason: { type: 'string' },
    tell: { type: 'string', multiple: true },
    approver: { type: 'string' },
  },
  async run(positionals, values, io) {
    const json = flag(values, 'json');
    const feature = given(values, 'feature', this.synopsis);
    const item = given(values, 'item', this.synopsis);
    const reason = given(values, 'reason', this.synopsis);
    const tells = list(values, 'tell');
    const refused = wordsRefusal(values);
    if (refused) return failed(io, refused, json);
    return withProject(onePath(positionals, this.synopsis), json, io, async (session) => {
      const result = await session.call('tells:allow', {
        feature,
        item,
        reason,
        approver: await approverOf(values, session),
        ...(tells.length ? { tells } : {}),
      });
      if (!result.ok) return failed(io, result.error, json);
      const record: LedgerRecord = result.value;
      if (json) printJson(io, { ok: true, record });
      else {
        // The record's schema lives with zod, which `baton --help` does not load: its length is all this line needs.
        const count = Array.isArray(record.data.tells) ? record.data.tells.length : 0;
        io.out(
          `Allowed ${count} tell${count === 1 ? '' : 's'} of ${item} (ledger record #${record.seq}, ${record.hash.slice(0, 12)}…). ` +
            `If ${item} is escalated, retry it to run again: baton resolve <dir> --feature ${feature} --item ${item} --decision retry`,
        );
      }
      return EXIT.ok;
    });
  },
};
