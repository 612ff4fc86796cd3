/**
 * Allowing code that tells a test run apart (issue 30): at GREEN and REFACTOR such a tell is a
 * violation unless a person allowed it for the item, with a reason — a `tells.allowed` record naming
 * the tells' ids (agents/tell-scan.ts), good for every round of that item. A person allows only tells
 * a violation of the item named, so an allowance is always of code someone was shown. Folded from
 * the ledger alone, so the engine, the CLI and the inbox agree.
 */
import type { LedgerRecord } from '../../shared/ledger';
import type { ProjectView } from '../../shared/model';
import { RECORD_TYPES, recordsOf } from '../../shared/records';
import { ofItem, tellsToAllow } from '../../shared/tells';

export { allowedTells, tellsToAllow, type AllowableTell } from '../../shared/tells';
import { err, ok, type Result } from '../../shared/result';
import { writableProject } from '../../shared/read-only';
import type { Ledger } from '../ledger';
import { policyRefusal, signerOf } from './policy';

/** How a person allows an item's tells, for the words that tell them so (an escalation, a refusal). */
export const allowTellsHint = (feature: string, item: string): string =>
  `If that code is intended, allow it with a reason — \`baton allow-tells <project> --feature ${feature} --item ${item} --reason "…"\` — then retry the item (\`baton resolve <project> --feature ${feature} --item ${item} --decision retry\`).`;

export interface AllowTellsRequest {
  readonly feature: string;
  readonly item: string;
  /** The ids to allow; none: every tell the item's violations named that is not allowed yet. */
  readonly tells?: readonly string[] | undefined;
  readonly reason: string;
  readonly approver: string;
}

/**
 * Records a person's allowance, fail closed: a writable project, a named person the acceptance
 * gate's policy lets decide, a reason, an item of the feature, and only tells its violations named
 * and no one allowed yet (checked inside the ledger's lock).
 */
export async function allowTells(view: ProjectView, ledger: Ledger, req: AllowTellsRequest): Promise<Result<LedgerRecord>> {
  const writable = writableProject(view, 'escalations');
  if (!writable.ok) return writable;
  if (req.approver.trim() === '')
    return err(
      'no-identity',
      `Allowing code that tells a test run apart must say who allows it: give your name and email, e.g. "Ada Lovelace <ada@example.com>".`,
    );
  const reason = req.reason.trim();
  if (reason === '') return err('no-reason', `Say why ${req.item}'s code may tell a test run apart: the reason is recorded with the allowance.`);
  const feature = view.features.find((f) => f.id === req.feature);
  if (!feature) return err('not-found', `No feature "${req.feature}" in ${view.root}. Features: ${view.features.map((f) => f.id).join(', ') || 'none'}.`);
  if (!feature.testList.some((t) => t.id === req.item))
    return err('not-found', `No item "${req.item}" in ${req.feature}'s test list. Items: ${feature.testList.map((t) => t.id).join(', ') || 'none'}.`);
  // Whether the built code is believed is the acceptance gate's question: its approvers decide this.
  const refused = await policyRefusal(view, 'acceptance', req.approver, signerOf(ledger), "code that tells a test run apart (the acceptance gate's approvers)");
  if (refused) return refused;
  try {
    return await ledger.transaction(async (tx) => {
      const open = tellsToAllow(tx.records, req.feature, req.item);
      if (open.length === 0)
        return err(
          'not-pending',
          `${req.item} in ${req.feature} has no code that tells a test run apart waiting for a decision (none was found, or it is allowed already). Reload to see its state.`,
        );
      const wanted = req.tells?.length ? [...new Set(req.tells)] : open.map((t) => t.id);
      const unknown = wanted.filter((id) => !open.some((t) => t.id === id));
      if (unknown.length)
        return err(
          'not-found',
          `${unknown.map((id) => id.slice(0, 12)).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not among ${req.item}'s tells waiting for a decision: ${open.map((t) => `${t.id.slice(0, 12)} (${t.file}:${t.line} ${t.why})`).join('; ')}.`,
        );
      const tells = open.filter((t) => wanted.includes(t.id)).map(({ file, line, why, text, id }) => ({ file, line, why, text, id }));
      const story = recordsOf(tx.records, RECORD_TYPES.cycleViolation).find((v) => ofItem(v, req.feature, req.item))?.subject.story;
      const record = await tx.append({
        type: RECORD_TYPES.tellsAllowed,
        actor: { kind: 'person', id: req.approver.trim() },
        subject: { feature: req.feature, ...(story ? { story } : {}), item: req.item },
        data: { tells, reason },
        blobs: [],
      });
      return ok(record);
    });
  } catch (error) {
    return err('ledger-error', `The allowance was not recorded: the ledger could not be written (${(error as Error).message}). Nothing changed; try again.`);
  }
}
