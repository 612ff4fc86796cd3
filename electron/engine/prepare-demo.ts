/**
 * `baton demo`: copy resources/demo to a fresh folder, make it a git repository, share Baton's
 * own node_modules with it (the demo app needs `pg`), and approve the spec, design and test_list
 * gates as a clearly named demo Product Owner so the run can build straight away.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { GateName } from '../../shared/ledger';
import { approveGate, gateEvidence } from '../gates';
import { Ledger, type SigningKey } from '../ledger';
import { createFeature } from './intake';
import { readProject } from '../project';
import { defaultDataDir, projectDataDir } from '../platform/data-dir';
import { packageRoot } from '../platform/package-root';

const exec = promisify(execFile);
export const DEMO_APPROVER = 'Demo Product Owner <demo@baton.invalid>';
const BATON_ROOT = packageRoot(import.meta.url);
export const DEMO_SOURCE = join(BATON_ROOT, 'resources', 'demo');

export interface PreparedDemo {
  readonly root: string;
  readonly dataDir: string;
  readonly feature: string;
}

/**
 * The demo app's own copy of what it needs (`pg` and what `pg` needs), never a link to Baton's
 * installed dependencies: an agent's write there must not reach code Baton itself runs.
 */
export async function copyDependencies(from: string, to: string, roots: readonly string[]): Promise<void> {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length) {
    const name = queue.shift()!;
    if (seen.has(name)) continue;
    const manifest = await readFile(join(from, name, 'package.json'), 'utf8').catch(() => null);
    // An optional dependency not installed here (pg-cloudflare on Node) is not needed.
    if (manifest === null) continue;
    seen.add(name);
    await cp(join(from, name), join(to, name), { recursive: true, dereference: true });
    const pkg = JSON.parse(manifest) as { dependencies?: Record<string, string> };
    queue.push(...Object.keys(pkg.dependencies ?? {}));
  }
}

/** Changes to the demo before it becomes a repository (the adversarial suite plays its own scenario on it). */
export interface DemoVariant {
  /** Files to write over the copy, relative to the project (a value that is not a string is written as JSON). */
  readonly files?: Readonly<Record<string, string | object>>;
  /** Settings merged into .baton/project.json. */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** Files and folders to remove from the copy, relative to the project (before `files` are written). */
  readonly remove?: readonly string[];
  /**
   * `baton demo --from-request`: no hand-written feature; the request in resources/demo-request is
   * taken in (intake) and the scripted design roles write the spec, design and test list. No gate
   * is approved here: the demo's Product Owner approves each as the run reaches it.
   */
  readonly fromRequest?: boolean;
  /** Signs the demo Product Owner's approvals made here (the user's key, as the Inbox's decisions are); none: typed. */
  readonly signer?: SigningKey | null;
}

export const DEMO_REQUEST = join(BATON_ROOT, 'resources', 'demo-request');
export const DEMO_FEATURE = 'F-inventory';

type Turn = { role: string; step?: string; item?: string; round?: number };

/**
 * The demo without its feature, playing the design turns before the build turns, and one test
 * amendment: the Navigator's review of the amended item proposes it, and that item's second
 * round (after the demo Product Owner approves) has the Driver's fix. The item's first-round
 * turns are pinned to round 1 so they do not play again in round 2.
 */
async function withoutFeature(root: string): Promise<void> {
  await rm(join(root, '.baton', 'features', DEMO_FEATURE), { recursive: true, force: true });
  const scenario = join(root, '.baton', 'scenario.json');
  const read = async (path: string) => JSON.parse(await readFile(path, 'utf8')) as { description: string; turns: Turn[] };
  const build = await read(scenario);
  const design = await read(join(DEMO_REQUEST, 'scenario-design.json'));
  const amend = JSON.parse(await readFile(join(DEMO_REQUEST, 'scenario-amend.json'), 'utf8')) as { description: string; review: Turn; green: Turn };
  const item = amend.review.item;
  const turns = build.turns.map((t) => (t.item !== item ? t : t.role === 'navigator' && t.step === 'review' ? amend.review : { ...t, round: 1 }));
  await writeFile(
    scenario,
    `${JSON.stringify({ description: `${design.description} ${build.description} ${amend.description}`, turns: [...design.turns, ...turns, amend.green] }, null, 2)}\n`,
  );
}

/** Intake of the demo's request, as the demo Product Owner. */
async function takeRequest(root: string): Promise<void> {
  const view = await readProject(root);
  if (!view.ok) throw new Error(`The demo project does not read: ${view.error.message}`);
  const made = await createFeature(view.value, Ledger.forArtifactRoot(join(root, '.baton')), {
    id: DEMO_FEATURE,
    title: 'Inventory that never oversells',
    request: await readFile(join(DEMO_REQUEST, 'request.md'), 'utf8'),
    attachments: [{ name: 'constraints.md', text: await readFile(join(DEMO_REQUEST, 'constraints.md'), 'utf8') }],
    requester: DEMO_APPROVER,
  });
  if (!made.ok) throw new Error(`The demo's request could not be taken in: ${made.error.message}`);
}

export async function prepareDemo(parent: string = tmpdir(), variant: DemoVariant = {}): Promise<PreparedDemo> {
  const base = await mkdtemp(join(parent, 'baton-demo-'));
  const root = join(base, 'inventory');
  await cp(DEMO_SOURCE, root, { recursive: true, filter: (src) => !/[\\/](node_modules|reports)$/.test(src) });
  if (variant.fromRequest) await withoutFeature(root);
  for (const path of variant.remove ?? []) await rm(join(root, path), { recursive: true, force: true });
  await copyDependencies(join(BATON_ROOT, 'node_modules'), join(root, 'node_modules'), ['pg']);
  for (const [path, content] of Object.entries(variant.files ?? {})) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`);
  }
  if (variant.settings) {
    const file = join(root, '.baton', 'project.json');
    await writeFile(file, `${JSON.stringify({ ...(JSON.parse(await readFile(file, 'utf8')) as object), ...variant.settings }, null, 2)}\n`);
  }
  const git = (...args: string[]) => exec('git', args, { cwd: root });
  await git('init', '-q', '-b', 'main');
  await git('config', 'user.name', 'Baton Demo');
  await git('config', 'user.email', 'demo@baton.invalid');
  await exec('sh', ['-c', 'printf "/node_modules\\n/reports/\\n" >> .git/info/exclude'], { cwd: root });
  await git('add', '-A');
  await git('commit', '-q', '-m', 'The inventory service before the feature');
  if (variant.fromRequest) {
    await takeRequest(root);
    const real = await realpath(root);
    return { root: real, dataDir: projectDataDir(real, defaultDataDir(process.env, process.platform, real)), feature: DEMO_FEATURE };
  }
  const feature = await approveDesignGates(root, {
    approver: DEMO_APPROVER,
    comment: 'Approved by the demo so the run can build; a real project waits for a person here.',
    signer: variant.signer ?? null,
  });
  const real = await realpath(root);
  return { root: real, dataDir: projectDataDir(real, defaultDataDir(process.env, process.platform, real)), feature };
}

/** The gates a project that ships its approved design has approved before the build. */
export const DESIGN_GATES: readonly GateName[] = ['spec', 'design', 'test_list'];

/**
 * Approves the spec, design and test_list gates of a project's first feature as `approver`, bound
 * to the artifacts' hashes as they are now: a project that ships its approved design (the demo, an
 * evaluation task) builds straight away. Returns the feature's id.
 */
export async function approveDesignGates(
  root: string,
  options: { readonly approver: string; readonly comment: string; readonly signer?: SigningKey | null },
): Promise<string> {
  const read = await readProject(root);
  if (!read.ok) throw new Error(`The project at ${root} does not read: ${read.error.message}`);
  const feature = read.value.features[0]?.id;
  if (!feature) throw new Error(`The project at ${root} has no feature in .baton/features to approve.`);
  const ledger = Ledger.forArtifactRoot(join(root, '.baton')).signedBy(options.signer ?? null);
  for (const gate of DESIGN_GATES) {
    const view = await readProject(root);
    if (!view.ok) throw new Error(view.error.message);
    const evidence = await gateEvidence(view.value, ledger, { feature, gate });
    if (!evidence.ok) throw new Error(`The ${gate} gate of ${feature}: ${evidence.error.message}`);
    const expect = Object.fromEntries(evidence.value.artifacts.filter((a) => a.sha256).map((a) => [a.name, a.sha256!]));
    const approved = await approveGate(view.value, ledger, { feature, gate, approver: options.approver, expect, comment: options.comment });
    if (!approved.ok) throw new Error(`Could not approve the ${gate} gate of ${feature}: ${approved.error.message}`);
  }
  return feature;
}
