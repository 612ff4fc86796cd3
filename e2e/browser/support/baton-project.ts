/**
 * A real Baton project in a scratch folder, made the way a person makes one: `git init`,
 * `baton init`, then the artifacts a feature's gates cover (spec, a story with an AC, the design
 * and the test list), written where the reader expects them (.baton/features/<F>/...).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from './paths';

/** What `identity:default` suggests: the project's own git config. */
export const GIT_IDENTITY = 'Ana Silva <ana@example.com>';

export interface BatonProject {
  readonly dir: string;
  /** The scratch folder the project was made in, for bundles and such; removed with it. */
  readonly scratch: string;
  featurePath(feature: string, name: string): string;
  writeArtifact(feature: string, name: string, value: unknown): void;
  readArtifact(feature: string, name: string): string;
  /** Runs `node bin/baton.mjs <args>`; throws with its output when it fails. */
  baton(...args: string[]): string;
}

export const specOf = (feature: string, description: string) => ({
  feature_id: feature,
  name: `Checkout ${feature}`,
  description,
  goals: ['pay by card', 'get a receipt'],
});

const json = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value, null, 2) + '\n');

/** Makes the project in `scratch`: the project in shop/, the CLI's config folder in config/. */
export function makeBatonProject(scratch: string, features: readonly string[] = ['F-1']): BatonProject {
  const dir = join(scratch, 'shop');
  const configDir = join(scratch, 'config');
  mkdirSync(dir);
  mkdirSync(configDir);
  const env = { ...process.env, BATON_CONFIG_DIR: configDir };
  const git = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { stdio: 'pipe' });
  git('init', '-b', 'main');
  git('config', 'user.name', 'Ana Silva');
  git('config', 'user.email', 'ana@example.com');

  const baton = (...args: string[]): string => {
    const run = spawnSync(process.execPath, ['bin/baton.mjs', ...args], { cwd: REPO_ROOT, env, encoding: 'utf8' });
    if (run.status !== 0) {
      throw new Error(`baton ${args.join(' ')} exited ${run.status}:\n${run.stdout}\n${run.stderr}`);
    }
    return run.stdout;
  };

  const featurePath = (feature: string, name: string) => join(dir, '.baton', 'features', feature, name);
  const writeArtifact = (feature: string, name: string, value: unknown) => {
    const file = featurePath(feature, name);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, json(value));
  };

  baton('init', dir);
  for (const feature of features) {
    writeArtifact(feature, 'feature-spec.json', specOf(feature, 'Shoppers pay for the items in their basket.'));
    writeArtifact(feature, 'stories/S-1/story.json', {
      id: 'S-1',
      title: 'Pay by card',
      as_a: 'shopper',
      i_want: 'to pay for my basket with a card',
      so_that: 'I get my order',
    });
    writeArtifact(feature, 'stories/S-1/acs/AC-1.json', {
      id: 'AC-1',
      title: 'Card accepted',
      given: 'a basket with one item',
      when: 'the shopper pays with a valid card',
      then: 'the order is paid',
    });
    writeArtifact(feature, 'architecture.json', { components: [{ name: 'checkout-api', kind: 'http' }] });
    writeArtifact(feature, 'db-design.json', { tables: [{ name: 'orders', columns: ['id', 'paid_at'] }] });
    writeArtifact(feature, 'test-list.json', {
      feature_id: feature,
      items: [
        { id: 'T1', description: 'a valid card pays the order', ac_id: 'AC-1', status: 'pending', kind: 'behavior' },
        { id: 'T2', description: 'a declined card leaves the order unpaid', ac_id: 'AC-1', status: 'pending', kind: 'behavior' },
      ],
    });
  }

  return {
    dir,
    scratch,
    featurePath,
    writeArtifact,
    readArtifact: (feature, name) => readFileSync(featurePath(feature, name), 'utf8'),
    baton,
  };
}
