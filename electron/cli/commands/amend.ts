/**
 * `baton amend list|propose|approve|reject`: test amendments from a terminal, through the
 * `amendments:*` channels the inbox uses, so they are refused in the same words. An amendment is
 * named by its record's hash or any unambiguous prefix of it (8 characters or more).
 */
import type { AmendmentView, ProjectView } from '../../../shared/model';
import { flag, given, JSON_OPTION, text, type Command, type Values } from '../command';
import { EXIT, UsageError, type ExitCode } from '../exit-codes';
import { approverOf } from './decide';
import { printJson, type Io } from '../io';
import { failed, withProject } from '../open-project';
import { readInputFile } from '../read-input';

const SYNOPSIS =
  'amend list|propose|approve|reject <dir> [--feature F] [--item T --path TEST --from FILE|- --reason TEXT] [--amendment HASH] [--note TEXT] [--approver "Name <email>"] [--json]';

/** The new test is read up to this size (a test file, not a data dump). */
const MAX_TEST_BYTES = 1_000_000;

const readContent = (path: string): Promise<string> => readInputFile(path, 'the new test', MAX_TEST_BYTES);

const amendmentsOf = (view: ProjectView, feature: string | undefined): AmendmentView[] =>
  view.features.filter((f) => !feature || f.id === feature).flatMap((f) => f.amendments);

function line(a: AmendmentView): string {
  const state =
    a.status === 'approved'
      ? `approved by ${a.decidedBy} · re-run ${a.rerun}${a.rerunCycle ? ` (${a.rerunCycle})` : ''}`
      : a.status === 'rejected'
        ? `rejected by ${a.decidedBy}: ${a.note}`
        : 'pending';
  return `${a.id.slice(0, 12)}  ${a.feature}/${a.item}  ${a.files.map((f) => f.path).join(', ')}  by ${a.proposedBy.id}  ${state}\n    ${a.reason}`;
}

function pick(view: ProjectView, values: Values, synopsis: string): AmendmentView {
  const wanted = given(values, 'amendment', synopsis).toLowerCase();
  if (!/^[0-9a-f]{8,64}$/.test(wanted))
    throw new UsageError(`--amendment takes the amendment's record hash (8 or more hex digits, from \`baton amend list\`); got "${wanted}".`);
  const found = amendmentsOf(view, text(values, 'feature')).filter((a) => a.id.startsWith(wanted));
  if (found.length === 1) return found[0]!;
  throw new UsageError(
    found.length === 0
      ? `No amendment ${wanted} in this project: \`baton amend list\` shows them.`
      : `${wanted} names ${found.length} amendments: give more of the hash.`,
  );
}

function list(io: Io, json: boolean, view: ProjectView, feature: string | undefined): ExitCode {
  const all = amendmentsOf(view, feature);
  if (json) printJson(io, { ok: true, amendments: all });
  else io.out(all.length ? all.map(line).join('\n') : 'No test amendments.');
  return EXIT.ok;
}

export const amendCommand: Command = {
  name: 'amend',
  synopsis: SYNOPSIS,
  summary: "Propose, list and decide test amendments: a change to an item's locked test, re-run RED/GREEN once approved",
  options: {
    ...JSON_OPTION,
    feature: { type: 'string' },
    item: { type: 'string' },
    path: { type: 'string' },
    from: { type: 'string' },
    reason: { type: 'string' },
    amendment: { type: 'string' },
    note: { type: 'string' },
    approver: { type: 'string' },
  },
  async run(positionals, values, io) {
    const [sub, dir, ...extra] = positionals;
    if (!sub || !['list', 'propose', 'approve', 'reject'].includes(sub) || !dir || extra.length > 0)
      throw new UsageError(`amend takes a subcommand (list, propose, approve, reject) and one folder: baton ${SYNOPSIS}`);
    const json = flag(values, 'json');
    const synopsis = `baton ${SYNOPSIS}`;
    if (sub === 'propose') {
      const feature = given(values, 'feature', synopsis);
      const item = given(values, 'item', synopsis);
      const path = given(values, 'path', synopsis);
      const reason = given(values, 'reason', synopsis);
      const content = await readContent(given(values, 'from', synopsis));
      return withProject(dir, json, io, async (session) => {
        const result = await session.call('amendments:propose', {
          feature,
          item,
          files: [{ path, content }],
          reason,
          approver: await approverOf(values, session),
        });
        if (!result.ok) return failed(io, result.error, json);
        if (json) printJson(io, { ok: true, record: result.value });
        else
          io.out(
            `Proposed an amendment of ${path} for ${item} (ledger record #${result.value.seq}, ${result.value.hash.slice(0, 12)}…): it waits in the Inbox for a decision.`,
          );
        return EXIT.ok;
      });
    }
    return withProject(dir, json, io, async (session, view) => {
      if (sub === 'list') return list(io, json, view, text(values, 'feature'));
      const amendment = pick(view, values, synopsis);
      const note = text(values, 'note');
      const result = await session.call('amendments:decide', {
        feature: amendment.feature,
        amendment: amendment.id,
        decision: sub === 'approve' ? 'approve' : 'reject',
        approver: await approverOf(values, session),
        ...(note ? { note } : {}),
      });
      if (!result.ok) return failed(io, result.error, json);
      if (json) printJson(io, { ok: true, record: result.value });
      else
        io.out(
          sub === 'approve'
            ? `Approved the amendment of ${amendment.item} (ledger record #${result.value.seq}): its next round runs RED/GREEN against the amended test with \`baton run\`.`
            : `Rejected the amendment of ${amendment.item} (ledger record #${result.value.seq}): the lock stays as it was.`,
        );
      return EXIT.ok;
    });
  },
};
