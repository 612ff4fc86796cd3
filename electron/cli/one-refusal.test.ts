/**
 * One refusal, three hosts: what the CLI refuses, the browser host (its real WebSocket) and the
 * Electron app (its real IPC binding, electron/app/ipc.ts, with ipcMain stood in for: Electron
 * itself cannot run here) refuse with the same code and the same words — because all three go
 * through dispatch(createHandlers(workbench)). Read-only projects (a Consort project, a review
 * bundle) for gates, escalations and runs; request values the contract refuses; an unknown feature.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import type { AppError, Result } from '../../shared/result';
import { bindContract } from '../app/ipc';
import { createHandlers } from '../core/handlers';
import { Workbench } from '../core/workbench';
import { batonFeature } from '../gates/gate-project.fixture';
import { startHost, type RunningHost } from '../host/server';
import { exportBundle } from '../ledger';
import { makeTempDir, writeTree } from '../project/temp-project.fixture';
import { main } from './main';

// The Electron app binds every channel with ipcMain.handle; this stands in for ipcMain and keeps the handlers.
const ipc = vi.hoisted(() => new Map<string, (event: unknown, payload: unknown) => Promise<Result<unknown>>>());
vi.mock('electron', () => ({ ipcMain: { handle: (channel: string, handler: never) => ipc.set(channel, handler) } }));

const CONSORT = path.resolve(import.meta.dirname, '../../e2e/fixtures/consort-shop');
const APPROVER = 'Ada <ada@example.com>';
const HASH = 'a'.repeat(64);
const TRUSTED = 'file:///baton/renderer/index.html';

let base: string;
let baton: string;
let bundle: string;
let browser: RunningHost;
let socket: WebSocket;
let frames = 0;
const workbenches: Workbench[] = [];
const saved = { config: process.env.BATON_CONFIG_DIR, ceiling: process.env.GIT_CEILING_DIRECTORIES };

beforeAll(async () => {
  base = await makeTempDir('baton-one-refusal-');
  process.env.BATON_CONFIG_DIR = path.join(base, 'config');
  process.env.GIT_CEILING_DIRECTORIES = base;
  baton = path.join(base, 'shop');
  await writeTree(baton, { ...batonFeature('F-1'), '.baton/project.json': { name: 'shop' } });
  bundle = path.join(base, 'review.baton');
  const exported = await exportBundle({ artifactRoot: path.join(baton, '.baton'), layout: 'baton', projectName: 'shop', out: bundle });
  if (!exported.ok) throw new Error(exported.error.message);

  const workbench = (host: 'browser' | 'electron') => {
    const made = new Workbench({ host, version: '0.0.0', configDir: path.join(base, `config-${host}`) });
    workbenches.push(made);
    return made;
  };
  // The browser host, as `baton serve` starts it.
  const staticDir = path.join(base, 'static');
  await mkdir(staticDir, { recursive: true });
  await writeFile(path.join(staticDir, 'index.html'), '<!doctype html><title>Baton</title>');
  const served = workbench('browser');
  browser = await startHost({ workbench: served, handlers: createHandlers(served), staticDir, port: 0 });
  socket = new WebSocket(`ws://127.0.0.1:${browser.port}/ws?token=${browser.token}`, { origin: `http://127.0.0.1:${browser.port}` });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  // The Electron app, as electron/app/main.ts binds it.
  bindContract(createHandlers(workbench('electron')), (url) => url === TRUSTED);
});

afterAll(async () => {
  socket?.close();
  await browser?.close();
  for (const workbench of workbenches) await workbench.close();
  for (const [key, value] of Object.entries({ BATON_CONFIG_DIR: saved.config, GIT_CEILING_DIRECTORIES: saved.ceiling })) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  await rm(base, { recursive: true, force: true });
});

/** One request over the browser host's WebSocket, as the renderer's client sends it. */
function overSocket(channel: string, request: unknown): Promise<Result<unknown>> {
  const id = ++frames;
  return new Promise((resolve) => {
    const onMessage = (data: Buffer) => {
      const frame = JSON.parse(String(data)) as { kind: string; id?: number; result?: Result<unknown> };
      if (frame.kind !== 'result' || frame.id !== id) return;
      socket.off('message', onMessage);
      resolve(frame.result!);
    };
    socket.on('message', onMessage);
    socket.send(JSON.stringify({ id, channel, request }));
  });
}

/** One request over the Electron app's IPC binding, from the app's own window. */
function overIpc(channel: string, request: unknown): Promise<Result<unknown>> {
  const handler = ipc.get(channel);
  if (!handler) throw new Error(`${channel} is not bound`);
  return handler({ senderFrame: { parent: null, url: TRUSTED } }, request);
}

/** Opens `project` in the host, then sends the request: the error it answers with. */
async function refusedBy(send: typeof overIpc, project: string, channel: string, request: unknown): Promise<AppError> {
  const opened = await send('project:open', { path: project });
  if (!opened.ok) throw new Error(`${project} did not open: ${opened.error.message}`);
  const result = await send(channel, request);
  if (result.ok) throw new Error(`${channel} should have been refused, got ${JSON.stringify(result.value)}`);
  return result.error;
}

/** `baton …args --json`: its exit code and the error its one JSON document carries. */
async function refusedByCli(args: string[]): Promise<{ code: number; error: AppError; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main([...args, '--json'], { out: (t) => out.push(t), err: (t) => err.push(t) });
  const printed = JSON.parse(out.join('\n')) as { ok: boolean; error: AppError };
  expect(printed.ok).toBe(false);
  return { code, error: printed.error, err: err.join('\n') };
}

type Case = readonly [name: string, project: () => string, cli: (dir: string) => string[], channel: string, request: Record<string, unknown>, code: string];

const gate = (feature: string, name: string) => ['--feature', feature, '--gate', name, '--approver', APPROVER];

/** The gate and escalation decisions and the run, on a project where none of them may happen. */
const readOnlyCases = (label: string, project: () => string, feature: string, item: string): Case[] => [
  [
    `${label}: approve`,
    project,
    (dir) => ['approve', dir, ...gate(feature, 'spec'), '--expect', `feature.json=${HASH}`],
    'gates:approve',
    { feature, gate: 'spec', approver: APPROVER, expect: { 'feature.json': HASH } },
    'read-only',
  ],
  [
    `${label}: reject`,
    project,
    (dir) => ['reject', dir, ...gate(feature, 'design'), '--reason', 'no'],
    'gates:reject',
    { feature, gate: 'design', approver: APPROVER, reason: 'no' },
    'read-only',
  ],
  [
    `${label}: withdraw`,
    project,
    (dir) => ['withdraw', dir, ...gate(feature, 'spec'), '--reason', 'no'],
    'gates:withdraw',
    { feature, gate: 'spec', approver: APPROVER, reason: 'no' },
    'read-only',
  ],
  [
    `${label}: restore`,
    project,
    (dir) => ['restore', dir, ...gate(feature, 'spec'), '--yes'],
    'gates:restore',
    { feature, gate: 'spec', approver: APPROVER, expect: {} },
    'read-only',
  ],
  [
    `${label}: resolve`,
    project,
    (dir) => ['resolve', dir, '--feature', feature, '--item', item, '--decision', 'skip', '--approver', APPROVER],
    'escalations:decide',
    { feature, item, decision: 'skip', approver: APPROVER },
    'read-only',
  ],
  [
    `${label}: allow-tells`,
    project,
    (dir) => ['allow-tells', dir, '--feature', feature, '--item', item, '--reason', 'it logs its pid', '--approver', APPROVER],
    'tells:allow',
    { feature, item, reason: 'it logs its pid', approver: APPROVER },
    'read-only',
  ],
  [`${label}: run`, project, (dir) => ['run', dir], 'run:start', {}, 'read-only'],
];

const CASES: Case[] = [
  ...readOnlyCases('a Consort project', () => CONSORT, 'F-checkout', 'T5'),
  ...readOnlyCases('a review bundle', () => bundle, 'F-1', 'T1'),
  // What a request holds is the contract's to refuse, whichever host carries it.
  [
    'an empty reason',
    () => baton,
    (dir) => ['reject', dir, ...gate('F-1', 'spec'), '--reason', ''],
    'gates:reject',
    { feature: 'F-1', gate: 'spec', approver: APPROVER, reason: '' },
    'invalid-request',
  ],
  [
    'a reason of spaces',
    () => baton,
    (dir) => ['withdraw', dir, ...gate('F-1', 'spec'), '--reason', '   '],
    'gates:withdraw',
    { feature: 'F-1', gate: 'spec', approver: APPROVER, reason: '   ' },
    'invalid-request',
  ],
  [
    'an empty approver',
    () => baton,
    (dir) => ['approve', dir, '--feature', 'F-1', '--gate', 'spec', '--approver', '', '--expect', `feature.json=${HASH}`],
    'gates:approve',
    { feature: 'F-1', gate: 'spec', approver: '', expect: { 'feature.json': HASH } },
    'invalid-request',
  ],
  ['an empty feature to run', () => baton, (dir) => ['run', dir, '--feature', ''], 'run:start', { feature: '' }, 'invalid-request'],
  [
    'an empty item to resolve',
    () => baton,
    (dir) => ['resolve', dir, '--feature', 'F-1', '--item', '', '--decision', 'retry', '--approver', APPROVER],
    'escalations:decide',
    { feature: 'F-1', item: '', decision: 'retry', approver: APPROVER },
    'invalid-request',
  ],
  // A feature the project does not have.
  ['run an unknown feature', () => baton, (dir) => ['run', dir, '--feature', 'F-9'], 'run:start', { feature: 'F-9' }, 'not-found'],
  [
    'approve in an unknown feature',
    () => baton,
    (dir) => ['approve', dir, ...gate('F-9', 'spec'), '--expect', `feature.json=${HASH}`],
    'gates:approve',
    { feature: 'F-9', gate: 'spec', approver: APPROVER, expect: { 'feature.json': HASH } },
    'not-found',
  ],
  [
    'the evidence of an unknown feature',
    () => baton,
    (dir) => ['approve', dir, ...gate('F-9', 'spec'), '--yes'],
    'gates:evidence',
    { feature: 'F-9', gate: 'spec' },
    'not-found',
  ],
  [
    'reject in an unknown feature',
    () => baton,
    (dir) => ['reject', dir, ...gate('F-9', 'design'), '--reason', 'no'],
    'gates:reject',
    { feature: 'F-9', gate: 'design', approver: APPROVER, reason: 'no' },
    'not-found',
  ],
  [
    'resolve in an unknown feature',
    () => baton,
    (dir) => ['resolve', dir, '--feature', 'F-9', '--item', 'T1', '--decision', 'skip', '--approver', APPROVER],
    'escalations:decide',
    { feature: 'F-9', item: 'T1', decision: 'skip', approver: APPROVER },
    'not-found',
  ],
  [
    'allow tells in an unknown feature',
    () => baton,
    (dir) => ['allow-tells', dir, '--feature', 'F-9', '--item', 'T1', '--reason', 'it logs its pid', '--approver', APPROVER],
    'tells:allow',
    { feature: 'F-9', item: 'T1', reason: 'it logs its pid', approver: APPROVER },
    'not-found',
  ],
];

describe('one refusal, three hosts', () => {
  it.each(CASES)('%s: the CLI, the browser host and the Electron app say the same', async (_name, project, cli, channel, request, code) => {
    const viaBrowser = await refusedBy(overSocket, project(), channel, request);
    const viaElectron = await refusedBy(overIpc, project(), channel, request);
    const viaCli = await refusedByCli(cli(project()));
    expect(viaBrowser.code).toBe(code);
    expect(viaElectron).toEqual(viaBrowser);
    expect(viaCli.error).toEqual(viaBrowser);
    expect(viaCli.code).toBe(1);
    expect(viaCli.err).toBe(`baton: ${viaBrowser.message}`);
  });
});
