/**
 * The browser host's WebSocket frames: for every channel of the contract, a valid request frame,
 * mutated (the frame's text as bytes, or the request's fields as JSON), then what the host does
 * with a message: clientFrameSchema, then dispatch with the channel's zod request schema. Each
 * answer is a refusal of the frame, or a Result — accepted, or refused in words with
 * `invalid-request`/`forbidden-channel` — that the host can send back as JSON.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { CHANNELS, type Channel } from '../../shared/contract';
import { mutatorsFor } from './mutators.fixture';
import { FuzzLog, FuzzSandbox, inLanes, judgeWire, LANES } from './sandbox.fixture';

const CASES = 330;
const TIMEOUT_MS = 10_000;
const SHA = 'a'.repeat(64);
const APPROVER = 'Ada Lovelace <ada@example.com>';

/** A request each channel accepts; channels not listed take `{}`. */
const VALID: Partial<Record<Channel, unknown>> = {
  'project:open': { path: '/tmp/shop' },
  'gates:evidence': { feature: 'F-1', gate: 'spec' },
  'gates:approve': { feature: 'F-1', story: 'S-1', gate: 'acceptance', approver: APPROVER, expect: { 'feature.json': SHA }, comment: 'fine', viewedMs: 1200 },
  'gates:reject': { feature: 'F-1', gate: 'design', approver: APPROVER, reason: 'the schema is missing', viewedMs: 10, discard: false },
  'gates:withdraw': { feature: 'F-1', gate: 'spec', approver: APPROVER, reason: 'scope changed' },
  'gates:restore': { feature: 'F-1', gate: 'spec', approver: APPROVER, expect: { 'feature.json': SHA, 'stories/S-1/story.json': null } },
  'escalations:decide': { feature: 'F-1', item: 'T1', decision: 'retry', note: 'try again', approver: APPROVER },
  'tells:allow': { feature: 'F-1', item: 'T1', tells: [SHA], reason: 'the pool logs its pid', approver: APPROVER },
  'amendments:propose': { feature: 'F-1', item: 'T1', files: [{ path: 'test/pay.test.ts', content: 'test()' }], reason: 'typo', approver: APPROVER },
  'amendments:decide': { feature: 'F-1', amendment: SHA, decision: 'approve', approver: APPROVER },
  'features:new': { title: 'Refunds', request: 'Shoppers can get a refund.', attachments: [{ name: 'notes.md', text: '# notes' }], approver: APPROVER },
  'ledger:list': { offset: 0, limit: 50 },
  'ledger:blob': { sha256: SHA },
  'branches:create': { opId: 'op-1', gitBranch: 'baton/f-1', parent: 'main' },
  'branches:delete': { opId: 'op-2', name: 'baton/f-1' },
  'branches:reset': { opId: 'op-3', name: 'baton/f-1' },
  'branches:diff': { opId: 'op-4', name: 'baton/f-1' },
  'branches:migrations': { opId: 'op-5' },
  'branches:cancel': { opId: 'op-6' },
  'run:start': { feature: 'F-1', until: 'done' },
  'agents:save': { role: 'driver', config: { adapter: 'command', command: ['my-agent', '--fast'], timeoutSeconds: 60, env: { MODE: 'x' } } },
  'agents:check': { role: 'navigator', config: { adapter: 'claude', model: 'opus', args: ['--verbose'] } },
  'settings:check': { changes: { repairBudget: 4, gates: { acceptance: ['@po'] }, smells: { stallFactor: 2.5 } } },
  'settings:save': { changes: { parallel: 2, deploy: { start: 'node server.js', verify: 'npm run smoke' }, notify: null } },
};

const log = new FuzzLog('wire');
const sandboxes = Array.from({ length: LANES }, () => new FuzzSandbox());
afterAll(() => Promise.all(sandboxes.map((s) => s.close())));

describe('fuzz: WebSocket request frames', () => {
  it(`${CASES} mutated frames, ${CHANNELS.length} channels, through clientFrameSchema and dispatch`, { timeout: 600_000 }, async () => {
    // Two seeds per channel: the request alone (JSON mutators reach its fields) and the whole frame.
    const plans = CHANNELS.flatMap((channel, index) => {
      const request = VALID[channel] ?? {};
      const frame = Buffer.from(JSON.stringify({ id: index + 1, channel, request }));
      return [
        { channel, whole: false, seed: Buffer.from(JSON.stringify(request)) },
        { channel, whole: true, seed: frame },
      ].map((plan) => ({ ...plan, mutators: mutatorsFor(plan.seed) }));
    });
    await inLanes(CASES, sandboxes, async (sandbox, i) => {
      const plan = plans[i % plans.length]!;
      // Plans and mutators rotate independently, so every mutator meets many channels.
      const mutated = plan.mutators[i % plan.mutators.length]!.apply(plan.seed, log.rng(i));
      const body = mutated.bytes.toString('utf8');
      const data = plan.whole ? body : `{"id":${i},"channel":${JSON.stringify(plan.channel)},"request":${body}}`;
      log.cases++;
      const outcome = await sandbox.call<never>('wire', [data], TIMEOUT_MS);
      log.note(`#${i} ${plan.channel} ${plan.whole ? 'frame' : 'request'} ${mutated.mutation}`, judgeWire(outcome, TIMEOUT_MS), outcome.ms);
    });
    console.log(log.summary());
    expect(log.cases).toBe(CASES);
    expect(log.failures).toEqual([]);
  });
});
