/**
 * Test reports as runners write them (JUnit XML, TAP, vitest and jest JSON), mutated, through
 * parseReport: each answer is a report the ledger can hash, or a ReportParseError saying the report
 * could not be read — never another exception, never a hang (a run's time limit is per case).
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { ReportFormat } from '../runner/report';
import { type Mutator, mutatorsFor } from './mutators.fixture';
import { FuzzLog, FuzzSandbox, inLanes, judgeReport, LANES } from './sandbox.fixture';

const CASES = 240;
const TIMEOUT_MS = 10_000;

const JUNIT = `<?xml version="1.0" encoding="utf-8"?>
<testsuites name="all" tests="3" failures="1">
  <testsuite name="checkout" file="test/pay.test.ts" tests="3" time="0.5">
    <testcase name="pays by card" classname="checkout" time="0.1"/>
    <testcase name="declines &amp; explains" classname="checkout" time="0.2">
      <failure message="expected 402"><![CDATA[AssertionError: 200 == 402
    at pay.test.ts:12:5]]></failure>
    </testcase>
    <testcase name="refunds" classname="checkout"><skipped/></testcase>
    <testsuite name="nested"><testcase name="inner" time="0.001"/></testsuite>
  </testsuite>
</testsuites>
`;

const TAP = `TAP version 13
# Subtest: checkout
    ok 1 - pays by card
      ---
      duration_ms: 1.5
      ...
    not ok 2 - declines
      ---
      duration_ms: 2
      error: 'expected 402'
      ...
    ok 3 - refunds # SKIP not yet
    1..3
not ok 1 - checkout
1..1
`;

const JEST = JSON.stringify({
  numTotalTests: 2,
  testResults: [
    {
      name: '/work/test/pay.test.ts',
      status: 'failed',
      message: '',
      assertionResults: [
        { ancestorTitles: ['checkout'], title: 'pays', status: 'passed', duration: 3, failureMessages: [] },
        { ancestorTitles: ['checkout'], title: 'declines', status: 'failed', duration: 4, failureMessages: ['expected 402'] },
      ],
    },
    { name: '/work/test/broken.test.ts', status: 'failed', message: 'SyntaxError: Unexpected token', assertionResults: [] },
  ],
});

const text = (name: string, make: () => string): Mutator => ({ name, apply: () => ({ mutation: name, bytes: Buffer.from(make(), 'utf8') }) });

/** Inputs aimed at each parser's weak spots: nesting, backtracking, entities, never-closed blocks. */
const XML_EXTRA: readonly Mutator[] = [
  text('xml:deep-elements', () => `<testsuites>${'<testsuite name="s">'.repeat(100_000)}<testcase name="x"/>${'</testsuite>'.repeat(100_000)}</testsuites>`),
  text('xml:attribute-without-value', () => `<testsuites><testcase ${'a'.repeat(1_000_000)}/></testsuites>`),
  text('xml:many-attributes', () => `<testsuites><testcase ${'n="v" '.repeat(100_000)}/></testsuites>`),
  text(
    'xml:surrogate-entities',
    () => '<testsuites><testcase name="&#xD800;&#55296;&#x110000;&#99999999999;"><failure message="&#xDFFF;"/></testcase></testsuites>',
  ),
  text('xml:unclosed', () => `<testsuites>${'<testcase name="x">'.repeat(50_000)}`),
  text('xml:unterminated-quote', () => `<testsuites><testcase name="${'x'.repeat(500_000)}`),
  text('xml:proto-attributes', () => '<testsuites><testcase __proto__="x" constructor="y" name="z" file="__proto__"/></testsuites>'),
];
const TAP_EXTRA: readonly Mutator[] = [
  text('tap:long-space-run', () => `ok 1 - a${' '.repeat(200_000)}#x\n1..1\n`),
  text('tap:long-space-run-cr', () => `ok 1 - a${'\t'.repeat(200_000)}\rx\n1..1\n`),
  text('tap:long-directive-line', () => `ok 1 - ${' #'.repeat(100_000)}\n1..1\n`),
  text('tap:many-subtests', () => `${'# Subtest: s\n'.repeat(100_000)}ok 1 - x\n`),
  text('tap:deep-subtests', () => `${Array.from({ length: 2_000 }, (_, i) => `${' '.repeat(i * 4)}# Subtest: s${i}`).join('\n')}\nok 1 - x\n`),
  text('tap:unterminated-yaml', () => `not ok 1 - x\n  ---\n${'  error: y\n'.repeat(100_000)}`),
  text('tap:lone-surrogate-name', () => 'ok 1 - \ud800 name\n1..1\n'),
];
const JSON_EXTRA: readonly Mutator[] = [
  text('json:null-entries', () => JSON.stringify({ testResults: [null, 1, 'x', { assertionResults: [null, 2, { title: 't', status: 'passed' }] }] })),
  text('json:infinite-duration', () => '{"testResults":[{"name":"a","assertionResults":[{"title":"t","status":"passed","duration":1e999}]}]}'),
  text(
    'json:surrogate-title',
    () =>
      '{"testResults":[{"name":"\\udc00","assertionResults":[{"title":"\\ud800","ancestorTitles":["\\ud800x"],"status":"failed","failureMessages":["\\ud800"]}]}]}',
  ),
];

const SEEDS: readonly { format: ReportFormat; seed: string; extra: readonly Mutator[] }[] = [
  { format: 'junit', seed: JUNIT, extra: XML_EXTRA },
  { format: 'tap', seed: TAP, extra: TAP_EXTRA },
  { format: 'jest-json', seed: JEST, extra: JSON_EXTRA },
  { format: 'vitest-json', seed: JEST, extra: JSON_EXTRA },
];

const log = new FuzzLog('reports');
const sandboxes = Array.from({ length: LANES }, () => new FuzzSandbox());
afterAll(() => Promise.all(sandboxes.map((s) => s.close())));

describe('fuzz: test reports', () => {
  it(`${CASES} mutated JUnit, TAP and JSON reports through parseReport`, { timeout: 600_000 }, async () => {
    const plans = SEEDS.map((s) => ({ ...s, mutators: mutatorsFor(Buffer.from(s.seed), s.extra) }));
    await inLanes(CASES, sandboxes, async (sandbox, i) => {
      const plan = plans[i % plans.length]!;
      const mutator = plan.mutators[Math.floor(i / plans.length) % plan.mutators.length]!;
      const mutated = mutator.apply(Buffer.from(plan.seed), log.rng(i));
      log.cases++;
      // Reports are read as UTF-8 text (controlled-run.ts): invalid bytes arrive as U+FFFD.
      const outcome = await sandbox.call<never>('report', [mutated.bytes.toString('utf8'), plan.format], TIMEOUT_MS);
      log.note(`#${i} ${plan.format} ${mutated.mutation}`, judgeReport(outcome, TIMEOUT_MS), outcome.ms);
    });
    console.log(log.summary());
    expect(log.cases).toBe(CASES);
    expect(log.failures).toEqual([]);
  });
});
