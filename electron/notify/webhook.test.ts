/**
 * The project's webhook (webhook.ts): a run that stops POSTs one JSON object to a loopback server
 * standing in for ntfy or Slack; the URL may come from the environment; a webhook that fails is
 * named by its host only, never by its secret path.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/run';
import { seedTemplate } from '../branches/pglite/pglite.fixture';
import { greenTurn, makeCycleProject, redTurn } from '../engine/cycle-project.fixture';
import { runFeature } from '../engine/run-feature';
import { removeDir } from '../project/temp-project.fixture';
import { postWebhook, runStopped, webhookUrl } from './webhook';

let server: Server;
let base: string;
const received: { path: string; type: string | undefined; body: unknown }[] = [];
let status = 200;

beforeAll(async () => {
  server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += String(chunk)));
    request.on('end', () => {
      received.push({ path: request.url ?? '', type: request.headers['content-type'], body: JSON.parse(text) });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const cleanup: string[] = [];
afterAll(async () => {
  for (const dir of cleanup) await removeDir(dir);
});

describe('the webhook', () => {
  it('is told where a run stopped, in one JSON POST, with the URL read from the environment', async () => {
    received.length = 0;
    const project = await makeCycleProject(['T1'], { turns: [redTurn('T1'), greenTurn('T1')] }, { settings: { notify: { webhook: 'env:BATON_TEST_HOOK' } } });
    cleanup.push(`${project.root}/..`);
    await seedTemplate(project.dataDir);
    process.env.BATON_TEST_HOOK = `${base}/s3cret-topic`;
    const events: RunEvent[] = [];
    try {
      const summary = await runFeature({ root: project.root, until: 'acceptance', dataDir: project.dataDir, gatePollMs: 50, onEvent: (e) => events.push(e) });
      expect(summary.stoppedAt).toMatch(/acceptance gate/);
      expect(received).toEqual([
        {
          path: '/s3cret-topic',
          type: 'application/json',
          body: expect.objectContaining({
            source: 'baton',
            title: 'Baton: F-1 needs you',
            text: `Baton: F-1 needs you (app): ${summary.stoppedAt}`,
            feature: 'F-1',
            escalations: 0,
            blocked: false,
          }),
        },
      ]);
      expect(events.filter((e) => e.kind === 'run.note' && /Not notified/.test(e.message))).toEqual([]);
    } finally {
      delete process.env.BATON_TEST_HOOK;
    }
  }, 180_000);

  it("is told when a run that started stops on an error, without the error's words", async () => {
    received.length = 0;
    const project = await makeCycleProject(['T1'], { turns: [redTurn('T1'), greenTurn('T1')] }, { settings: { notify: { webhook: `${base}/s3cret-topic` } } });
    cleanup.push(`${project.root}/..`);
    // A Postgres server that is not there: the run holds its lock, then cannot open its branches.
    const postgresUrl = 'postgresql://baton:pa55word@127.0.0.1:9/none';
    const failure = await runFeature({ root: project.root, until: 'acceptance', provider: 'postgres', postgresUrl, gatePollMs: 50 }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect(received).toEqual([
      {
        path: '/s3cret-topic',
        type: 'application/json',
        body: expect.objectContaining({ title: 'Baton: the run of F-1 stopped on an error', phase: 'failed', feature: 'F-1' }),
      },
    ]);
    expect(JSON.stringify(received)).not.toMatch(/pa55word|127\.0\.0\.1:9/);
  }, 180_000);

  it('a webhook that fails or is missing is said, naming only its host', async () => {
    status = 500;
    const message = runStopped({
      project: '/x/shop',
      feature: 'F-2',
      phase: 'building',
      items: { total: 1, byStatus: {} },
      repairs: 0,
      violations: 0,
      rejectedRed: 0,
      escalations: [{ item: 'T1' } as never],
      blocked: null,
      ledgerHead: null,
      stoppedAt: 'T1 escalated',
    });
    expect(message.title).toBe('Baton: 1 item of F-2 escalated');
    const failed = await postWebhook(`${base}/s3cret-topic?key=abc`, message);
    expect(failed).toBe(`the webhook at ${new URL(base).host} answered 500`);
    expect(await postWebhook('http://127.0.0.1:9/s3cret', message)).toBe('the webhook at 127.0.0.1:9 could not be reached');
    status = 200;
    expect(webhookUrl('env:NOT_SET_ANYWHERE', {})).toEqual({ error: expect.stringContaining('NOT_SET_ANYWHERE, which is not set') });
    expect(webhookUrl('ftp://x/y')).toEqual({ error: expect.stringContaining('is not an http(s) URL') });
    expect(webhookUrl(undefined)).toBeNull();
    expect(webhookUrl('https://ntfy.sh/topic')).toEqual({ url: 'https://ntfy.sh/topic' });
  });
});
