/**
 * The Metrics screen's channel answers with the figures `baton metrics --json` prints for the same
 * project (one fold, shared/metrics.ts), through dispatch as the Electron app and the browser host
 * call it, with the records behind them; an unknown feature is refused in words.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor, LedgerRecord, Subject } from '../../shared/ledger';
import type { MetricsScreen } from '../../shared/metrics/screen';
import { RECORD_TYPES, type RecordData, type RecordType } from '../../shared/records';
import { sampleData } from '../../shared/records.fixture';
import { baton } from '../cli/branch-project.fixture';
import { makeBatonProject, type TestProject } from '../gates/gate-project.fixture';
import { dispatch } from './dispatch';
import { createHandlers } from './handlers';
import { Workbench } from './workbench';

const ORCHESTRATOR: Actor = { kind: 'orchestrator', id: 'baton' };

describe('metrics:get', () => {
  let project: TestProject;
  let workbench: Workbench;
  beforeAll(async () => {
    project = await makeBatonProject();
    for (const gate of ['spec', 'design', 'test_list'] as const) expect((await project.approve(gate)).ok).toBe(true);
    const subject: Subject = { feature: 'F-1', story: 'S-1', item: 'T1', cycle: 'F-1/T1' };
    const add = <T extends RecordType>(type: T, fields: Partial<RecordData<T>> = {}): Promise<LedgerRecord> =>
      project.ledger.append({ type, actor: ORCHESTRATOR, subject, data: sampleData(type, fields), blobs: [] } as never);
    await add(RECORD_TYPES.cyclePlanned);
    await add(RECORD_TYPES.cycleRed, { verdict: 'red' });
    await add(RECORD_TYPES.cycleGreen, { verdict: 'failing', attempt: 1, key: 'green:1' });
    await add(RECORD_TYPES.cycleGreen, { verdict: 'green', attempt: 2, key: 'green:2' });
    workbench = new Workbench({ host: 'browser', version: '0.0.0', configDir: mkdtempSync(path.join(tmpdir(), 'baton-metrics-')) });
    expect((await workbench.open(project.root)).ok).toBe(true);
  });
  afterAll(async () => {
    await workbench?.close();
    await project?.cleanup();
  });

  it('answers with the figures of `baton metrics --json`, and the records behind them', async () => {
    const run = await baton('metrics', project.root, '--json');
    expect(run.code, run.err).toBe(0);
    const cli = JSON.parse(run.out) as Pick<MetricsScreen, 'features' | 'totals'>;
    const answer = await dispatch(createHandlers(workbench), 'metrics:get', {});
    if (!answer.ok) throw new Error(answer.error.message);
    const screen = answer.value as MetricsScreen;
    expect(screen.features).toEqual(cli.features);
    expect(screen.totals).toEqual(cli.totals);
    expect(screen.totals.counts?.repairs).toBe(1);
    const records = await project.records();
    const t1 = records.filter((r) => r.subject.item === 'T1').map((r) => r.seq);
    expect(screen.links[0]!.items['T1']).toEqual(t1);
    expect(screen.links[0]!.gates).toHaveLength(3);
    expect(screen.chainOk).toBe(true);
  });

  it('refuses an unknown feature, naming the features there are', async () => {
    const answer = await dispatch(createHandlers(workbench), 'metrics:get', { feature: 'F-9' });
    expect(answer.ok).toBe(false);
    if (!answer.ok) expect(answer.error).toMatchObject({ code: 'not-found', message: expect.stringContaining('Features: F-1') });
  });
});
