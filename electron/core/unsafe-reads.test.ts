/**
 * Through the host's entry point (dispatch → handlers → the real Workbench): files an attacker with
 * write access to the project folder swapped for a symlink, a FIFO or a gzip bomb. Nothing outside
 * the project is served, no open hangs, and a bomb is served a page at a time.
 */
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BlobView, LedgerPage } from '../../shared/ledger';
import type { ProjectView } from '../../shared/model';
import type { Result } from '../../shared/result';
import { batonFeature, makeBatonProject, type TestProject } from '../gates/gate-project.fixture';
import { gzipBomb } from '../ledger/gzip-bomb.fixture';
import { makeTempDir, removeDir } from '../project/temp-project.fixture';
import { dispatch } from './dispatch';
import { createHandlers, type Handlers } from './handlers';
import { Workbench } from './workbench';

const FIFO = 'is a named pipe (FIFO), not a regular file; not read — replace it with a regular file';
const hasMkfifo = (() => {
  try {
    execFileSync('sh', ['-c', 'command -v mkfifo'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!hasMkfifo) console.log('skipped the FIFO cases: mkfifo is not on PATH on this machine');

let project: TestProject;
let configDir: string;
let handlers: Handlers;
beforeEach(async () => {
  project = await makeBatonProject({ ...batonFeature(), '.baton/project.json': { version: 1, name: 'shop' } });
  configDir = await makeTempDir('baton-config-');
  handlers = createHandlers(new Workbench({ host: 'browser', version: '1.0.0', configDir }));
});
afterEach(async () => {
  await project.cleanup();
  await removeDir(configDir);
});

const call = <T>(channel: string, payload: unknown) => dispatch(handlers, channel, payload) as Promise<Result<T>>;
const valueOf = <T>(result: Result<T>): T => {
  if (!result.ok) throw new Error(`expected ok, got ${result.error.code}: ${result.error.message}`);
  return result.value;
};
const blobsDir = () => path.join(project.root, '.baton', 'ledger', 'blobs');
const appendBlob = async (content: string) =>
  (await project.ledger.append({ type: 'test.recorded', actor: { kind: 'orchestrator', id: 'baton' }, blobs: [{ name: 'out.txt', content }] })).blobs[0]!;

describe('ledger:blob', () => {
  it('serves a small blob whole, as before, and refuses one replaced by a symlink to /etc/passwd', async () => {
    const blob = await appendBlob('the runner said: 3 passing\n');
    valueOf(await call('project:open', { path: project.root }));
    expect(valueOf(await call<BlobView>('ledger:blob', { sha256: blob.sha256 }))).toEqual({
      sha256: blob.sha256,
      bytes: blob.bytes,
      offset: 0,
      length: blob.bytes,
      total: blob.bytes,
      text: 'the runner said: 3 passing\n',
      more: false,
      truncated: false,
    });

    await fs.rm(path.join(blobsDir(), blob.sha256));
    await fs.symlink('/etc/passwd', path.join(blobsDir(), blob.sha256));
    const refused = await call<BlobView>('ledger:blob', { sha256: blob.sha256 });
    expect(refused.ok).toBe(false);
    expect(JSON.stringify(refused)).not.toContain('root:');
    expect(!refused.ok && refused.error).toEqual({
      code: 'unsafe-file',
      message: `The blob ${blob.sha256.slice(0, 12)}… cannot be shown: .baton/ledger/blobs/${blob.sha256} is a symbolic link, not a regular file; not followed — replace the link with the file itself. Run \`baton verify\` to check the ledger's blobs.`,
    });
  });

  it('pages a large blob: offset and limit within bounds, each page ending on a whole character', async () => {
    const text = 'é'.repeat(200_000); // 400,000 bytes of two-byte characters
    const blob = await appendBlob(text);
    valueOf(await call('project:open', { path: project.root }));
    const first = valueOf(await call<BlobView>('ledger:blob', { sha256: blob.sha256, limit: 100_001 }));
    expect(first).toMatchObject({ offset: 0, length: 100_000, more: true, truncated: true, total: null, bytes: 400_000 });
    const next = valueOf(await call<BlobView>('ledger:blob', { sha256: blob.sha256, offset: 100_000 }));
    expect(next).toMatchObject({ offset: 100_000, length: 256 * 1024, more: true });
    expect(first.text! + next.text!).toBe(text.slice(0, (100_000 + 256 * 1024) / 2));
    const last = valueOf(await call<BlobView>('ledger:blob', { sha256: blob.sha256, offset: 356_144, limit: 1024 * 1024 }));
    expect(last).toMatchObject({ length: 43_856, more: false, total: 400_000 });
    const tooBig = await call('ledger:blob', { sha256: blob.sha256, limit: 1024 * 1024 + 1 });
    expect(tooBig).toMatchObject({ ok: false, error: { code: 'invalid-request' } });
  });

  it('serves a page of a gzip bomb (a small blob inflating to 256 MB) and nothing more', async () => {
    const blob = await appendBlob('placeholder content, replaced below by the bomb');
    await fs.writeFile(path.join(blobsDir(), blob.sha256), await gzipBomb(256 * 1024 * 1024));
    valueOf(await call('project:open', { path: project.root }));
    const page = valueOf(await call<BlobView>('ledger:blob', { sha256: blob.sha256 }));
    expect(page).toMatchObject({ offset: 0, length: 256 * 1024, more: true, total: null, text: null });
  }, 60_000);
});

describe('opening a project with a FIFO where a file should be', () => {
  const withFifo = async (relative: string): Promise<{ view: ProjectView; ms: number }> => {
    const file = path.join(project.root, relative);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.rm(file, { force: true });
    execFileSync('mkfifo', [file]);
    const started = Date.now();
    const view = valueOf(await call<ProjectView>('project:open', { path: project.root }));
    return { view, ms: Date.now() - started };
  };

  it.skipIf(!hasMkfifo).each(['.baton/project.json', '.baton/features/F-1/feature.json', '.baton/features/F-1/gates.json'])(
    '%s: the project opens within seconds, the FIFO a located problem',
    async (relative) => {
      const { view, ms } = await withFifo(relative);
      expect(ms).toBeLessThan(5000);
      expect(view.problems).toContainEqual({ file: relative, message: FIFO });
    },
    15_000,
  );

  it.skipIf(!hasMkfifo)(
    '.baton/ledger/events.jsonl: the project opens within seconds, and the ledger names the FIFO',
    async () => {
      await appendBlob('a record, so the ledger exists');
      const { ms } = await withFifo('.baton/ledger/events.jsonl');
      expect(ms).toBeLessThan(5000);
      const page = valueOf(await call<LedgerPage>('ledger:list', {}));
      expect(page.problems).toContainEqual({ file: '.baton/ledger/events.jsonl', message: FIFO });
      expect(page.chain.ok).toBe(false);
    },
    15_000,
  );

  it.skipIf(!hasMkfifo)(
    'four FIFOs at once (more than libuv has threads) stop nothing: the project opens, then reads still work',
    async () => {
      const blob = await appendBlob('still readable\n');
      for (const relative of ['.baton/features/F-1/feature.json', '.baton/features/F-1/gates.json', '.baton/features/F-1/test-list.json']) {
        execFileSync('sh', ['-c', `rm -f "$1" && mkfifo "$1"`, 'sh', path.join(project.root, relative)]);
      }
      const { view, ms } = await withFifo('.baton/project.json');
      expect(ms).toBeLessThan(5000);
      expect(view.problems.filter((p) => p.message === FIFO).map((p) => p.file)).toEqual([
        '.baton/features/F-1/feature.json',
        '.baton/features/F-1/gates.json',
        '.baton/features/F-1/test-list.json',
        '.baton/project.json',
      ]);
      expect(valueOf(await call<BlobView>('ledger:blob', { sha256: blob.sha256 })).text).toBe('still readable\n');
    },
    15_000,
  );
});
