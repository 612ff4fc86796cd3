/**
 * A Baton story's status is what the ledger proves, since Baton keeps no pipeline.json (a Consort
 * project's pipeline.json is all there is, so its stories are left as read). From the last proof back:
 * `shipped` (its acceptance approved and the feature promoted after it), `accepted`, `discarded`
 * (set by annotateGates), `awaiting-acceptance` (every item of the story done), `building` (an item
 * started), `ready` (the test list approved), else `designing`. Runs after annotateGates and
 * annotateItems: it reads the gates and item statuses they set.
 */
import type { LedgerRecord } from '../../shared/ledger';
import type { Feature, ProjectView, Story, StoryStatus, TestStatus } from '../../shared/model';
import { RECORD_TYPES, recordsOf } from '../../shared/records';

const DONE: readonly TestStatus[] = ['green', 'refactored', 'skipped'];

const approvalInForce = (feature: Feature, gate: string, story: string | null): number | null =>
  feature.gates.find((g) => g.name === gate && g.story === story)?.approvalSeq ?? null;

export function storyStatus(feature: Feature, story: Story, promotedAt: readonly number[]): StoryStatus {
  if (story.status === 'discarded') return story.status;
  const accepted = approvalInForce(feature, 'acceptance', story.id);
  if (accepted !== null) return promotedAt.some((seq) => seq > accepted) ? 'shipped' : 'accepted';
  const items = feature.testList.filter((item) => item.storyId === story.id);
  if (items.length > 0 && items.every((item) => DONE.includes(item.status))) return 'awaiting-acceptance';
  if (items.some((item) => item.status !== 'pending')) return 'building';
  return approvalInForce(feature, 'test_list', null) !== null ? 'ready' : 'designing';
}

export function annotateStories(view: ProjectView, records: readonly LedgerRecord[]): ProjectView {
  if (view.layout !== 'baton') return view;
  const promoted = recordsOf(records, RECORD_TYPES.promoteDone);
  return {
    ...view,
    features: view.features.map((feature) => {
      const promotedAt = promoted.filter((r) => r.data.feature === feature.id).map((r) => r.seq);
      return { ...feature, stories: feature.stories.map((story) => ({ ...story, status: storyStatus(feature, story, promotedAt) })) };
    }),
  };
}
