/**
 * `baton init --ci github`: a GitHub Actions workflow that runs `baton verify` on every pull
 * request (and push to the default branch), so a broken hash chain, a drifted gate, a tier
 * migration the code no longer has (a database ahead of its code), or a GREEN that does not
 * reproduce (`--rerun`: the tests each GREEN in the commit made pass, run again) fails the check.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileInside } from '../platform/contained-write';

export const CI_KINDS = ['github'] as const;
export type CiKind = (typeof CI_KINDS)[number];

export const GITHUB_WORKFLOW = '.github/workflows/baton.yml';

export function githubWorkflow(defaultBranch: string): string {
  return `# Written by \`baton init --ci github\`. Fails a pull request whose Baton evidence does not hold:
# a broken hash chain or a missing blob, an approved gate whose files changed (drift), a
# migration a promotion applied to a tier database that the code no longer has as it was, or a
# GREEN that does not reproduce (its tests, run again on this commit, no longer pass).
name: baton
on:
  pull_request:
  push:
    branches: [${JSON.stringify(defaultBranch)}]
permissions:
  contents: read
jobs:
  verify:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
      # Where your team installs Baton from: set the repository variable BATON_PACKAGE to a registry
      # name or a git URL (for example github:your-org/baton#v0.1.0).
      - name: Install Baton
        run: npm install --no-save --no-package-lock "\${BATON_PACKAGE:-baton}"
        env:
          BATON_PACKAGE: \${{ vars.BATON_PACKAGE }}
      # The project's own dependencies, for the re-run of its tests.
      - name: Install the project
        run: if [ -f package-lock.json ]; then npm ci; elif [ -f package.json ]; then npm install; fi
      - name: Verify the evidence
        run: npx --no-install baton verify . --rerun
`;
}

/** Writes the workflow; refuses to overwrite one without `force`. Returns its path. */
export async function writeCiWorkflow(root: string, kind: CiKind, defaultBranch: string, force: boolean): Promise<string> {
  const file = join(root, GITHUB_WORKFLOW);
  if (existsSync(file) && !force) throw new Error(`${file} already exists. Nothing was changed; pass --force to rewrite it.`);
  await writeFileInside(root, file, kind === 'github' ? githubWorkflow(defaultBranch) : '');
  return file;
}
