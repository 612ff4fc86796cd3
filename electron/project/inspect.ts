/** The summary `baton inspect` prints (as text, or as JSON for scripts and CI). */
import {
  TEST_KINDS,
  TEST_STATUSES,
  type GateStatus,
  type Layout,
  type ProjectView,
  type StoryStatus,
  type TestKind,
  type TestStatus,
} from '../../shared/model';
import { decidedAtWords, deciderWords, gateLabel } from '../../shared/gate-words';
import { visible } from '../../shared/text-input';

export interface InspectReport {
  readonly layout: Layout;
  readonly features: readonly {
    readonly id: string;
    readonly name: string;
    readonly stories: readonly { readonly id: string; readonly status: StoryStatus }[];
    readonly testList: {
      readonly total: number;
      readonly byStatus: Readonly<Record<TestStatus, number>>;
      readonly byKind: Readonly<Record<TestKind | 'unspecified', number>>;
    };
    readonly gates: readonly {
      readonly name: string;
      /** The story of a per-story gate (acceptance), null for the feature's own. */
      readonly story: string | null;
      readonly status: GateStatus;
      readonly approver: string | null;
      readonly approvedAt: string | null;
      /** Who rejected or withdrew the gate, and when (Baton), while it stays so. */
      readonly decidedBy: { readonly who: string; readonly at: string } | null;
      readonly artifacts: readonly { readonly name: string; readonly sha256: string; readonly kind: 'file' | 'reference' }[];
    }[];
    readonly cycles: number;
  }[];
  readonly problems: readonly { readonly file: string; readonly message: string }[];
}

/** Every key present, zero-filled, so a script can read `byStatus.red` without a guard. */
const zeroes = <K extends string>(keys: readonly K[]): Record<K, number> => Object.fromEntries(keys.map((key) => [key, 0])) as Record<K, number>;

export const inspectReport = (view: ProjectView): InspectReport => ({
  layout: view.layout,
  features: view.features.map((feature) => {
    const byStatus = zeroes(TEST_STATUSES);
    const byKind = zeroes<TestKind | 'unspecified'>([...TEST_KINDS, 'unspecified']);
    for (const item of feature.testList) {
      byStatus[item.status] += 1;
      byKind[item.kind ?? 'unspecified'] += 1;
    }
    return {
      id: feature.id,
      name: feature.name,
      stories: feature.stories.map((story) => ({ id: story.id, status: story.status })),
      testList: { total: feature.testList.length, byStatus, byKind },
      gates: feature.gates.map((gate) => ({
        name: gate.name,
        story: gate.story,
        status: gate.status,
        approver: gate.approver,
        approvedAt: gate.approvedAt,
        decidedBy: gate.decidedBy ?? null,
        artifacts: gate.artifacts.map((artifact) => ({ name: artifact.name, sha256: artifact.sha256, kind: artifact.kind })),
      })),
      cycles: feature.cycles,
    };
  }),
  problems: view.problems.map((problem) => ({ file: problem.file, message: problem.message })),
});

/** Left-aligned columns separated by two spaces; trailing spaces trimmed. */
const table = (rows: readonly (readonly string[])[], indent: string): string[] => {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map(
    (row) =>
      indent +
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
  );
};

const counts = (record: Readonly<Record<string, number>>): string =>
  Object.entries(record)
    .map(([key, count]) => `${count} ${key}`)
    .join(', ');

const formatFeature = (feature: InspectReport['features'][number]): string[] => {
  // A name from a file (or a feature made before titles were checked) is shown with its control characters escaped, never raw.
  const lines = [`${visible(feature.id)}  ${visible(feature.name)}`];
  if (feature.stories.length === 0) lines.push('  Stories: none');
  else {
    lines.push(`  Stories (${feature.stories.length})`);
    lines.push(
      ...table(
        feature.stories.map((story) => [story.id, story.status]),
        '    ',
      ),
    );
  }
  const { total, byStatus, byKind } = feature.testList;
  lines.push(`  Tests: ${total} total: ${counts(byStatus)}`);
  lines.push(`  Kinds: ${counts(byKind)}`);
  if (feature.gates.length === 0) lines.push('  Gates: none');
  else {
    lines.push(`  Gates (${feature.gates.length})`);
    const rows = feature.gates.map((gate) => [gateLabel(gate), gate.status, deciderWords(gate), decidedAtWords(gate)]);
    lines.push(...table([['name', 'status', 'decided by', 'decided at'], ...rows], '    '));
  }
  lines.push(`  Cycles: ${feature.cycles}`);
  return lines;
};

export const formatInspect = (report: InspectReport): string => {
  const header = `Layout: ${report.layout}  Features: ${report.features.length}  Problems: ${report.problems.length}`;
  const blocks = [[header], ...report.features.map(formatFeature)];
  const problems =
    report.problems.length === 0
      ? ['Problems: none']
      : [`Problems (${report.problems.length})`, ...report.problems.map((problem) => `  ${problem.file}: ${problem.message}`)];
  blocks.push(problems);
  return `${blocks.map((block) => block.join('\n')).join('\n\n')}\n`;
};
