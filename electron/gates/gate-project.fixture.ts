/**
 * Test helper: a real Baton project in a temporary folder, with a real ledger, so the gate rules
 * are exercised against real files, real hashes and the real single-writer lock.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { GateName, LedgerRecord } from '../../shared/ledger';
import type { ProjectView } from '../../shared/model';
import type { Result } from '../../shared/result';
import { Ledger } from '../ledger';
import { ORCHESTRATOR } from '../ledger/temp-ledger.fixture';
import { RECORD_TYPES } from '../../shared/records';
import { sampleData } from '../../shared/records.fixture';
import { readProject } from '../project';
import { makeTempDir, removeDir, writeTree, type FileTree } from '../project/temp-project.fixture';
import { annotateGates } from './annotate';
import { approveGate } from './decide';
import { gateEvidence } from './evidence';

export const PERSON = 'Ada Lovelace <ada@example.com>';

/** Deploy evidence that passes the schema (shared/deploy-evidence.ts): a healthy deploy, verified. */
export const DEPLOY_EVIDENCE = {
  schema_version: 1,
  feature_id: 'F-1',
  ran: { command: 'npm run deploy -- staging', exit_code: 0 },
  target: 'staging',
  url: 'https://staging.shop.example/',
  health: { ok: true, url: 'https://staging.shop.example/health', status: 200, checked_at: '2026-12-01T10:02:00Z' },
  verify: { passed: true, command: 'npm test', report_sha256: 'a'.repeat(64), summary: '12 passed' },
  started_at: '2026-12-01T10:00:00Z',
  finished_at: '2026-12-01T10:03:00Z',
};

/** A complete feature F-1: spec, one story with two ACs, design, test list, deploy evidence. */
export const batonFeature = (feature = 'F-1'): FileTree => {
  const base = `.baton/features/${feature}`;
  return {
    [`${base}/feature.json`]: { id: feature, name: `Feature ${feature}`, description: 'Shoppers pay by card.' },
    [`${base}/stories/S-1/story.json`]: { id: 'S-1', title: 'Pay by card', as_a: 'shopper', i_want: 'to pay by card', so_that: 'I get my order' },
    [`${base}/stories/S-1/acs/AC-1.json`]: { id: 'AC-1', given: 'a basket', when: 'I pay', then: 'the order is paid' },
    [`${base}/stories/S-1/acs/AC-2.json`]: { id: 'AC-2', given: 'a declined card', when: 'I pay', then: 'I see why' },
    [`${base}/architecture.json`]: { components: ['checkout-service'] },
    [`${base}/db-design.json`]: { tables: ['orders'] },
    [`${base}/test-list.json`]: {
      items: [
        { id: 'T1', description: 'pays', ac_id: 'AC-1', status: 'green' },
        { id: 'T2', description: 'declines', ac_id: 'AC-2', status: 'pending' },
      ],
    },
    [`${base}/deploy-evidence.json`]: DEPLOY_EVIDENCE,
  };
};

export interface TestProject {
  readonly root: string;
  readonly ledger: Ledger;
  /** Path of a file of feature F-1 (relative to its folder). */
  file(name: string, feature?: string): string;
  write(name: string, content: string | object, feature?: string): Promise<void>;
  records(): Promise<LedgerRecord[]>;
  /** The project as the Workbench would show it: read, then annotated from the ledger. */
  view(): Promise<ProjectView>;
  /** Approves with exactly the hashes the evidence shows, as the inbox does. */
  approve(gate: GateName, story?: string, approver?: string): Promise<Result<LedgerRecord>>;
  /** Records GREEN for these items of F-1's story S-1 as the orchestrator would (its attestation and status), so their ACs are proven. */
  prove(items?: readonly string[]): Promise<void>;
  cleanup(): Promise<void>;
}

export const makeBatonProject = async (files: FileTree = batonFeature()): Promise<TestProject> => {
  const root = await makeTempDir('baton-gates-');
  // No ledger folder yet: the first decision creates it, as in a project nobody has approved in.
  await writeTree(root, files);
  const ledger = Ledger.forArtifactRoot(path.join(root, '.baton'));
  const file = (name: string, feature = 'F-1') => path.join(root, '.baton', 'features', feature, name);
  const records = async () => (await ledger.read()).records;
  const view = async () => {
    const read = await readProject(root);
    if (!read.ok) throw new Error(read.error.message);
    return annotateGates(read.value, await records());
  };
  return {
    root,
    ledger,
    file,
    async write(name, content, feature) {
      await fs.mkdir(path.dirname(file(name, feature)), { recursive: true });
      await fs.writeFile(file(name, feature), typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`);
    },
    records,
    view,
    async approve(gate, story, approver = PERSON) {
      const current = await view();
      const ref = { feature: 'F-1', gate, ...(story ? { story } : {}) };
      const evidence = await gateEvidence(current, ledger, ref);
      if (!evidence.ok) return evidence;
      const expect = Object.fromEntries(evidence.value.artifacts.flatMap((a) => (a.sha256 ? [[a.name, a.sha256]] : [])));
      return approveGate(current, ledger, { ...ref, approver, expect });
    },
    async prove(items = ['T1', 'T2']) {
      for (const item of items) {
        const subject = { feature: 'F-1', story: 'S-1', item, cycle: `F-1/${item}/1` };
        await ledger.append({ type: RECORD_TYPES.cycleGreened, actor: ORCHESTRATOR, subject, data: sampleData(RECORD_TYPES.cycleGreened, {}) });
        await ledger.append({
          type: RECORD_TYPES.itemStatus,
          actor: ORCHESTRATOR,
          subject,
          data: sampleData(RECORD_TYPES.itemStatus, { item, status: 'green' }),
        });
      }
    },
    cleanup: () => removeDir(root),
  };
};

/** The one gate of feature F-1 with this name (and story). */
export const gateOf = (view: ProjectView, gate: string, story: string | null = null, feature = 'F-1') => {
  const found = view.features.find((f) => f.id === feature)?.gates.find((g) => g.name === gate && g.story === story);
  if (!found) throw new Error(`no ${gate} gate${story ? ` for ${story}` : ''} in ${feature}`);
  return found;
};
