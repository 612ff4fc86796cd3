/**
 * Test helper: builds a throwaway project folder under the OS temp folder. Real files on a real
 * file system, because symlinks, permissions and sizes are what the reader must cope with.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export type FileTree = Readonly<Record<string, string | object>>;

export const makeTempDir = (prefix = 'baton-project-'): Promise<string> => fs.mkdtemp(path.join(os.tmpdir(), prefix));

/** Writes `files` (path → text, or a value to serialise as JSON) under `root`. */
export const writeTree = async (root: string, files: FileTree): Promise<void> => {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, rel);
    await fs.mkdir(path.dirname(abs), { recursive: true });
    await fs.writeFile(abs, typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`);
  }
};

export const removeDir = (dir: string): Promise<void> => fs.rm(dir, { recursive: true, force: true });

/** Running as root, chmod 000 does not stop a read, so permission tests need another way. */
export const runningAsRoot = (): boolean => process.getuid?.() === 0;

/** A minimal valid feature: one story with one AC, and a one-item test list. */
export const minimalFeature = (base: string, feature = 'F-1'): FileTree => ({
  [`${base}/features/${feature}/feature-spec.json`]: { feature_id: feature, name: `Feature ${feature}` },
  [`${base}/features/${feature}/stories/S-1/story.json`]: { id: 'S-1', title: 'A story', as_a: 'user', i_want: 'x', so_that: 'y' },
  [`${base}/features/${feature}/stories/S-1/acs/AC-1.json`]: { id: 'AC-1', given: 'g', when: 'w', then: 't' },
  [`${base}/features/${feature}/test-list.json`]: { items: [{ id: 'T1', description: 'd', ac_id: 'AC-1', status: 'pending' }] },
});
