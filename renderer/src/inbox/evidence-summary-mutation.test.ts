/**
 * The acceptance gate's evidence summary with mutation scores (issue 30): each item's badge, and the
 * Surviving mutants row that lists every survivor and calls the items below the score weak tests.
 * Rendered to markup (no browser needed: the component is pure).
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { EvidenceSummary as Summary, ItemProof, MutationProof } from '../../../shared/ledger';
import { EvidenceSummary } from './evidence-summary';

const mutation = (score: number, survived: MutationProof['survived'], seq: number): MutationProof => ({
  seq,
  hash: 'a'.repeat(64),
  at: '2026-12-06T10:00:00.000Z',
  score,
  minScore: 0.6,
  tested: 4,
  killed: 4 - survived.length,
  survived,
  weak: score < 0.6,
});

const item = (id: string, m: MutationProof | null): ItemProof => ({
  id,
  description: `item ${id}`,
  acId: 'AC-1',
  storyId: 'S-1',
  status: 'green',
  cycles: 1,
  repairs: 0,
  violations: 0,
  rejectedRed: 0,
  green: { seq: 10, hash: 'b'.repeat(64), at: '2026-12-06T10:00:00.000Z', commit: 'c'.repeat(40) },
  unsandboxedRuns: [],
  mutation: m,
  lastRun: null,
});

const SURVIVOR = { file: 'src/stock.js', line: 4, column: 9, operator: 'boundary', original: 'qty < stock', replacement: 'qty <= stock' };

const summary = (items: ItemProof[]): Summary => ({
  feature: 'F-1',
  story: 'S-1',
  source: 'ledger',
  testItems: items.length,
  byStatus: { green: items.length },
  cycles: items.length,
  repairs: 0,
  violations: 0,
  rejectedRed: 0,
  escalations: 0,
  records: 20,
  lastRecordAt: null,
  items,
  acs: [{ id: 'AC-1', title: 'Never oversells', storyId: 'S-1', items: items.map((i) => i.id), proven: true, why: null }],
  dependencies: [],
});

const render = (items: ItemProof[]) => renderToStaticMarkup(createElement(EvidenceSummary, { summary: summary(items) }));

describe('mutation scores in the evidence summary', () => {
  it("shows each item's score, links it to its record, and lists every survivor, calling the weak item weak", () => {
    const html = render([
      item('T1', mutation(1 / 4, [SURVIVOR, { ...SURVIVOR, line: 7, operator: 'arithmetic', original: '+', replacement: '-' }, { ...SURVIVOR, line: 9 }], 31)),
      item('T2', mutation(1, [], 32)),
    ]);
    expect(html).toMatch(/data-testid="proof-mutation-T1"[^>]*href="#\/evidence\/31"|href="#\/evidence\/31"[^>]*data-testid="proof-mutation-T1"/);
    expect(html).toContain('mutation 25%');
    expect(html).toContain('mutation 100%');
    expect(html).toContain('Surviving mutants');
    expect(html).toContain('T1 · src/stock.js:4:9 boundary: qty &lt; stock → qty &lt;= stock');
    expect(html).toContain('T1 · src/stock.js:7:9 arithmetic: + → -');
    expect(html).toMatch(/weak tests[^]*1 item \(T1\) below/);
  });

  it('a survivor above the score is still listed, but nothing is called weak; no record, no badge and no row', () => {
    const above = render([item('T1', mutation(0.75, [SURVIVOR], 31))]);
    expect(above).toContain('Surviving mutants');
    expect(above).not.toContain('weak tests');
    const none = render([item('T1', null)]);
    expect(none).not.toContain('proof-mutation-T1');
    expect(none).not.toContain('Surviving mutants');
  });
});
