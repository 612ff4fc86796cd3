/**
 * `.baton/project.json`: the settings the orchestrator trusts (never files an agent may edit),
 * and the defaults `baton init` detects from a repository.
 */
import { z } from 'zod';
import { agentSettingSchema } from '../../shared/agents';
import { policyProblems, PUBLIC_KEY_PATTERN } from '../../shared/approvers';
import { PREFIX_PATTERN } from '../../shared/branches';
import { GATE_NAMES } from '../../shared/ledger';

/**
 * Branch settings. No secret lives here (project.json is committed): the postgres admin URL comes
 * from `--url` or the environment variable named by `postgres.urlEnv`; API keys from the
 * environment or the OS keychain.
 */
export const branchSettingsSchema = z.looseObject({
  /**
   * The existing database (or Neon / Lakebase branch) the default branch pairs with, used as it is;
   * Baton refuses to start when it does not exist rather than make it. Absent: Baton makes its own.
   */
  root: z.string().min(1).max(63).optional(),
  /**
   * What the names of the databases Baton makes start with. On a postgres server the default is
   * per project (`<name>-<hash>-`, electron/branches/names.ts) so projects sharing the server never
   * collide; elsewhere none. `""`: no prefix.
   */
  prefix: z.union([z.literal(''), z.string().regex(PREFIX_PATTERN, 'must be up to 23 of a-z, 0-9, "_" and "-", starting with a letter or digit')]).optional(),
  /** Git branch → tier. Tiers are never deleted and never written by agents. */
  tiers: z.record(z.string().min(1), z.enum(['production', 'staging'])).optional(),
  /** Hours an experiment pair lives before `baton branch gc` may remove it; null: forever. */
  ttlHours: z.number().positive().nullable().optional(),
  /** Pre-forked databases kept warm per parent (postgres, pglite). */
  poolSize: z.number().int().min(0).max(32).optional(),
  pglite: z.looseObject({ maxConnections: z.number().int().min(1).max(64).optional(), idleSeconds: z.number().int().min(1).optional() }).optional(),
  postgres: z.looseObject({ urlEnv: z.string().min(1).optional() }).optional(),
  neon: z.looseObject({ projectId: z.string().min(1), apiUrl: z.url().optional(), database: z.string().optional(), role: z.string().optional() }).optional(),
  lakebase: z.looseObject({ host: z.url(), project: z.string().min(1), database: z.string().optional() }).optional(),
});

/** The `sandbox` setting's values (electron/process/sandbox.ts acts on them). */
export const SANDBOX_SETTINGS = ['auto', 'off', 'required'] as const;

/** A trusted signing key: its public key, or `{key, name}` so messages can say whose it is. */
export const trustedKeySchema = z.union([
  z.string().regex(PUBLIC_KEY_PATTERN, 'is not an ed25519 public key (43 base64url characters, as `baton sign` prints it)'),
  z.strictObject({
    key: z.string().regex(PUBLIC_KEY_PATTERN, 'is not an ed25519 public key (43 base64url characters, as `baton sign` prints it)'),
    name: z.string().min(1).max(100).optional(),
  }),
]);

export const projectSettingsSchema = z
  .looseObject({
    version: z.literal(1),
    name: z.string().min(1),
    defaultBranch: z.string().min(1),
    branchProvider: z.enum(['pglite', 'postgres', 'neon', 'lakebase']),
    testCommand: z.string().nullable(),
    reportFormat: z.enum(['junit', 'tap', 'vitest-json', 'jest-json']),
    reportPath: z.string().nullable(),
    testGlobs: z.array(z.string()),
    runnerConfigFiles: z.array(z.string()),
    sourceGlobs: z.array(z.string()),
    /** `command` is required for tool `command` (Alembic, Flyway…): it runs with DATABASE_URL set. */
    migrations: z.object({ tool: z.enum(['sql', 'node-pg-migrate', 'knex', 'command']), path: z.string(), command: z.string().min(1).optional() }).nullable(),
    protectedPaths: z.array(z.string()),
    writeScopes: z.record(z.string(), z.array(z.string())),
    /** Role → adapter: a name (`scripted`, `command`, a preset) or its settings (shared/agents.ts). */
    agents: z.record(z.string(), agentSettingSchema),
    repairBudget: z.number().int().min(0).max(10),
    /** Lanes of independent stories built at once (electron/engine/lanes.ts); default: the machine's cores. */
    parallel: z.number().int().min(1).max(32).optional(),
    /** Runs on every new database branch before anything else connects: a SQL file (a path) or a command. */
    masking: z.union([z.string().min(1), z.strictObject({ sql: z.string().min(1) }), z.strictObject({ command: z.string().min(1) })]).nullable(),
    /** The scripted agent's scenario file (relative to the root), for roles whose adapter is `scripted`. */
    scenario: z.string().min(1).optional(),
    /** Seconds a test run may take before the runner kills its whole process tree. */
    testTimeoutSeconds: z.number().int().min(1).max(86_400).optional(),
    /**
     * Agents' commands and the orchestrator's test runs in a bubblewrap sandbox (Linux) where only
     * the worktree is writable. `auto` (default): when bubblewrap works, else unsandboxed and said
     * so in the transcript; `off`: never; `required`: refuse to run without it.
     */
    sandbox: z.enum(SANDBOX_SETTINGS).optional(),
    /**
     * The orchestrator's test runs inside the sandbox: `cut` (default) gives them no network at all
     * (the test database reaches them through a Unix socket Baton bridges), `shared` the host's.
     * Agents' turns always keep the network: they must reach their model.
     */
    testNetwork: z.enum(['cut', 'shared']).optional(),
    /**
     * A Driver's `BATON-DEPENDENCY:` requests: `install` (default; npm projects) adds the package to the
     * manifest and lockfile, recorded as an amendment of the lock; `refuse` records and declines them.
     */
    dependencyRequests: z.enum(['install', 'refuse']).optional(),
    /**
     * Environment variables passed (by name) to agents' commands and test runs, which otherwise get an
     * allow-list (PATH, locale, a private HOME): never Baton's own variables, API keys or tokens.
     */
    passEnv: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'is not an environment variable name')).optional(),
    /**
     * Files under a gate's folders (`stories/…`) that no gate counts, as globs (shared/glob.ts) on
     * the path inside the feature folder, e.g. `["**\/.DS_Store", "**\/*.swp"]`. Every other file
     * there counts, hidden or not, whatever its extension; story.json and acs/*.json always count.
     * Built in whatever this says: `.DS_Store` and `Thumbs.db` (electron/gates/definitions.ts).
     */
    gateIgnore: z.array(z.string().min(1, 'is an empty pattern').max(200)).max(100).optional(),
    /**
     * The orchestrator's deploy (electron/engine/deploy.ts): `start` runs the feature's committed code
     * with PORT, BASE_URL and DATABASE_URL set; `health` (a path, default `/health`) must answer 2xx
     * within `readySeconds` (default 60); `verify` then runs against BASE_URL.
     */
    deploy: z
      .strictObject({
        start: z.string().min(1),
        health: z.string().startsWith('/', 'must be a path on the app, starting with "/"').optional(),
        verify: z.string().min(1),
        readySeconds: z.number().int().min(1).max(3600).optional(),
        verifyTimeoutSeconds: z.number().int().min(1).max(86_400).optional(),
        target: z.string().min(1).optional(),
      })
      .optional(),
    /**
     * Promote (electron/engine/promote.ts): `verify` (optional) runs against the tier database after
     * its migrations; the tier's snapshot is kept `snapshotHours` (default 168). `via`: `auto`
     * (a pull request when gh and a remote are there, else a local merge), `local`, `pull-request`;
     * the pull request's checks are waited for up to `checksTimeoutMinutes` (default 60).
     */
    promote: z
      .strictObject({
        via: z.enum(['auto', 'local', 'pull-request']).optional(),
        checksTimeoutMinutes: z.number().int().min(1).max(1440).optional(),
        verify: z.string().min(1).optional(),
        verifyTimeoutSeconds: z.number().int().min(1).max(86_400).optional(),
        snapshotHours: z.number().positive().optional(),
      })
      .optional(),
    /**
     * Mutation testing after each item's GREEN (issue 30, electron/mutation/): `minScore` (default 0.6)
     * is the share of mutants of the changed lines the item's locked tests must kill; `maxMutants`
     * (default 16) caps the mutants run per item; `enabled: false` turns it off; `strengthen: false`
     * skips the strengthening round a weak item gets before acceptance (mutation/strengthen.ts).
     */
    mutation: z
      .strictObject({
        enabled: z.boolean().optional(),
        strengthen: z.boolean().optional(),
        minScore: z.number().min(0).max(1).optional(),
        maxMutants: z.number().int().min(1).max(500).optional(),
      })
      .optional(),
    /** `webhook`: a URL, or `env:NAME` to read it from the environment, POSTed when a run stops (electron/notify/webhook.ts). */
    notify: z
      .strictObject({
        // The message never quotes the value: the URL is a secret.
        webhook: z
          .string()
          .max(2000, 'is longer than 2000 characters')
          .regex(/^(env:[A-Za-z_][A-Za-z0-9_]*|https?:\/\/[^\s/?#]+\S*)$/i, 'must be an http(s) URL, or env:NAME to read it from the environment')
          .optional(),
      })
      .optional(),
    /**
     * The smell report's thresholds (shared/metrics/smells.ts, `baton metrics --smells`); each absent
     * one has its default (SMELL_DEFAULTS): a turn `stallFactor` (3) times its step's median, evidence
     * open under `rubberStampSeconds` (30), a gate waiting over `gateWaitHours` (24), a role with
     * `repeatedViolations` (2) or more violations.
     */
    smells: z
      .strictObject({
        stallFactor: z.number().gt(1, 'must be more than 1 (how many times the median a turn may take)').max(1000).optional(),
        rubberStampSeconds: z.number().min(0, 'must be 0 or more seconds').max(86_400).optional(),
        gateWaitHours: z.number().gt(0, 'must be more than 0 hours').max(8760).optional(),
        repeatedViolations: z.number().int('must be a whole number').min(1, 'must be 1 or more').max(1000).optional(),
      })
      .optional(),
    /** Database branches; every field is optional and has a default (see branchSettings()). */
    branches: branchSettingsSchema.optional(),
    /** Who may decide each gate: emails and `@role`s (shared/approvers.ts). A gate not named: anyone. */
    gates: z.partialRecord(z.enum(GATE_NAMES), z.array(z.string().min(1)).min(1, 'name at least one email or @role')).optional(),
    /** Roles `gates` can name (`@po`): role → emails. */
    approverRoles: z.record(z.string().regex(/^[A-Za-z0-9_-]+$/, 'is not a role name'), z.array(z.string().min(1))).optional(),
    /** Email → the public keys that person signs decisions with (shared/approvers.ts; `baton key` adds one). */
    approverKeys: z.record(z.string().min(1), z.array(z.string())).optional(),
    /**
     * Public keys (ed25519, base64url as `baton sign` prints them) whose signed checkpoints count for
     * this project; a checkpoint by any other key is "untrusted" (electron/core/trust.ts).
     */
    trustedKeys: z.array(trustedKeySchema).optional(),
  })
  .superRefine((settings, ctx) => {
    for (const problem of policyProblems(settings)) ctx.addIssue({ code: 'custom', path: ['gates'], message: problem });
  });
export type ProjectSettings = z.infer<typeof projectSettingsSchema>;

export interface RepoProbe {
  readonly name: string;
  readonly defaultBranch: string;
  readText(file: string): Promise<string | null>;
  exists(file: string): boolean;
}

interface Stack {
  testCommand: string | null;
  reportFormat: ProjectSettings['reportFormat'];
  reportPath: string | null;
  testGlobs: string[];
  runnerConfigFiles: string[];
  sourceGlobs: string[];
}

const ROLES = ['specAuthor', 'architectReviewer', 'dba', 'uxDesigner', 'testStrategist', 'navigator', 'driver'];

export async function detectDefaults(probe: RepoProbe): Promise<ProjectSettings> {
  const stack = await detectStack(probe);
  const migrations = detectMigrations(probe, (await probe.readText('package.json')) ?? '');
  return {
    version: 1,
    name: probe.name,
    defaultBranch: probe.defaultBranch,
    branchProvider: 'pglite',
    ...stack,
    migrations,
    protectedPaths: ['.baton/**', '.git/**', ...stack.runnerConfigFiles],
    writeScopes: {
      navigator: stack.testGlobs,
      driver: [...stack.sourceGlobs, ...(migrations ? [`${migrations.path}/**`] : [])],
    },
    agents: Object.fromEntries(ROLES.map((role) => [role, 'scripted'])),
    repairBudget: 3,
    masking: null,
  };
}

async function detectStack(probe: RepoProbe): Promise<Stack> {
  const pkgText = await probe.readText('package.json');
  if (pkgText !== null) {
    const pkg = safeJson(pkgText) as {
      scripts?: Record<string, string>;
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    } | null;
    // A runner listed under dependencies runs (and reports) exactly like one under devDependencies.
    const deps = { ...pkg?.dependencies, ...pkg?.devDependencies };
    const runnerConfigFiles = ['package.json', ...['vitest.config.ts', 'vitest.config.js', 'jest.config.js', 'jest.config.ts'].filter((f) => probe.exists(f))];
    const format = deps.vitest ? 'vitest-json' : deps.jest ? 'jest-json' : 'junit';
    return {
      testCommand: pkg?.scripts?.test ? 'npm test' : null,
      reportFormat: format,
      reportPath: format === 'junit' ? 'reports/junit.xml' : 'reports/test-results.json',
      testGlobs: ['test/**', 'tests/**', '**/*.test.{js,mjs,cjs,ts,tsx}', '**/*.spec.{js,mjs,cjs,ts,tsx}'],
      runnerConfigFiles,
      sourceGlobs: ['src/**', 'lib/**'],
    };
  }
  if (probe.exists('pyproject.toml') || probe.exists('setup.py') || probe.exists('requirements.txt')) {
    return {
      testCommand: 'pytest --junitxml=reports/junit.xml',
      reportFormat: 'junit',
      reportPath: 'reports/junit.xml',
      testGlobs: ['tests/**', '**/test_*.py', '**/*_test.py'],
      runnerConfigFiles: ['pyproject.toml', 'pytest.ini', 'setup.cfg', 'conftest.py'].filter((f) => probe.exists(f)),
      sourceGlobs: ['src/**', '**/*.py'],
    };
  }
  if (probe.exists('go.mod')) {
    return {
      testCommand: 'go test ./...',
      reportFormat: 'junit',
      reportPath: 'reports/junit.xml',
      testGlobs: ['**/*_test.go'],
      runnerConfigFiles: ['go.mod'],
      sourceGlobs: ['**/*.go'],
    };
  }
  return {
    testCommand: null,
    reportFormat: 'junit',
    reportPath: 'reports/junit.xml',
    testGlobs: ['test/**', 'tests/**'],
    runnerConfigFiles: [],
    sourceGlobs: ['src/**'],
  };
}

function detectMigrations(probe: RepoProbe, packageJson: string): ProjectSettings['migrations'] {
  if (packageJson.includes('"node-pg-migrate"')) return { tool: 'node-pg-migrate', path: 'migrations' };
  if (probe.exists('knexfile.js') || probe.exists('knexfile.ts')) return { tool: 'knex', path: 'migrations' };
  for (const path of ['migrations', 'db/migrations', 'sql/migrations']) {
    if (probe.exists(path)) return { tool: 'sql', path };
  }
  return null;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
