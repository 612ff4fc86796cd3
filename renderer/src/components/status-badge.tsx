/** Status words with their icon and tone, for test items, gates and stories. */
import type { GateStatus, StoryStatus, TestStatus } from '../../../shared/model';
import { humanize } from '../lib/format';
import { Icon, type IconName } from './icon';

export type Tone = 'neutral' | 'danger' | 'success' | 'info' | 'muted' | 'warning';

export interface Look {
  readonly icon: IconName;
  readonly tone: Tone;
}

export const TEST_STATUS_LOOK: Record<TestStatus, Look> = {
  pending: { icon: 'pending', tone: 'neutral' },
  red: { icon: 'red', tone: 'danger' },
  green: { icon: 'green', tone: 'success' },
  refactored: { icon: 'refactored', tone: 'info' },
  escalated: { icon: 'unknown', tone: 'warning' },
  skipped: { icon: 'skipped', tone: 'muted' },
};

export const GATE_LOOK: Record<GateStatus, Look> = {
  open: { icon: 'clock', tone: 'warning' },
  approved: { icon: 'green', tone: 'success' },
  superseded: { icon: 'superseded', tone: 'muted' },
  withdrawn: { icon: 'minus', tone: 'muted' },
  rejected: { icon: 'red', tone: 'danger' },
  drifted: { icon: 'unknown', tone: 'warning' },
};

const STORY_LOOK: Record<StoryStatus, Look> = {
  designing: { icon: 'pending', tone: 'neutral' },
  'awaiting-gate': { icon: 'clock', tone: 'warning' },
  ready: { icon: 'pending', tone: 'info' },
  building: { icon: 'progress', tone: 'info' },
  'awaiting-acceptance': { icon: 'clock', tone: 'warning' },
  done: { icon: 'green', tone: 'success' },
  accepted: { icon: 'green', tone: 'success' },
  shipped: { icon: 'green', tone: 'success' },
  discarded: { icon: 'minus', tone: 'muted' },
  unknown: { icon: 'unknown', tone: 'muted' },
};

export const FALLBACK: Look = { icon: 'unknown', tone: 'muted' };

export function Badge({ look, word, testId }: { look: Look; word: string; testId?: string }) {
  return (
    <span className={`badge tone-${look.tone}`} data-testid={testId}>
      <Icon name={look.icon} />
      <span>{word}</span>
    </span>
  );
}

export const TestStatusBadge = ({ status }: { status: TestStatus }) => <Badge look={TEST_STATUS_LOOK[status] ?? FALLBACK} word={status} />;

export const GateStatusBadge = ({ status, testId }: { status: GateStatus; testId?: string }) => (
  <Badge look={GATE_LOOK[status] ?? FALLBACK} word={status} testId={testId} />
);

export const StoryStatusBadge = ({ status }: { status: StoryStatus }) => (
  <Badge look={STORY_LOOK[status] ?? FALLBACK} word={status === 'unknown' ? 'no status' : humanize(status)} />
);
