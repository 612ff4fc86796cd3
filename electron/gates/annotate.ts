/**
 * Gives a freshly read ProjectView its gates' live state: Baton gates folded from the ledger,
 * foreign (Consort) gates as read; both re-hashed against the disk on every read, so drift shows
 * the moment an approved artifact changes. What `baton verify` would call a problem of a gate (a
 * drifted artifact, an approval that binds nothing) joins the view's problems, so Problems and
 * verify never disagree. Nothing is written, whatever the layout.
 */
import { discardedStories } from './discard';
import type { LedgerRecord } from '../../shared/ledger';
import type { Feature, Problem, ProjectView } from '../../shared/model';
import { naturalCompare } from '../project/fields';
import { gateReport, judgeGates } from './verify-gates';

const sameProblem = (a: Problem, b: Problem): boolean => a.file === b.file && a.message === b.message;

/**
 * `records` is the ledger of a Baton project (null or empty: nothing decided yet, every gate open);
 * foreign layouts ignore it, their decisions live in their gates.json files.
 */
export const annotateGates = async (view: ProjectView, records: readonly LedgerRecord[] | null): Promise<ProjectView> => {
  const judged = await judgeGates(view, records);
  const gatesOf = new Map(judged.filter((j) => j.shown).map((j) => [j.feature, j.gates]));
  const features = view.features.map((feature): Feature => {
    // A story discarded at acceptance (and taken up) is gone: it says so, and its rejection waits for nobody.
    const dropped = view.layout === 'baton' && records ? discardedStories(records, feature.id) : new Set<string>();
    const stories = dropped.size ? feature.stories.map((s) => (dropped.has(s.id) ? { ...s, status: 'discarded' as const } : s)) : feature.stories;
    return { ...feature, stories, gates: gatesOf.get(feature.id) ?? feature.gates };
  });
  const problems = [...view.problems];
  for (const problem of gateReport(judged).problems) {
    const entry = { file: problem.file, message: problem.message };
    if (!problems.some((p) => sameProblem(p, entry))) problems.push(entry);
  }
  problems.sort((a, b) => naturalCompare(a.file, b.file) || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
  return { ...view, features, problems };
};
