/**
 * `baton branch create|delete|list|reset|diff|gc|url|adopt`: branch pairs (a git branch with its
 * worktree, and a database branch) from a terminal, through the `branches:*` channels the Branches
 * screen uses, so they are refused in the same words. `gc` and `url` have no channel (only a
 * terminal asks for them) and go through the Workbench, as does `adopt`. Destructive subcommands show what they would
 * remove and need `--yes`. Connection URLs are printed with the password redacted unless
 * `--show-secret`; progress goes to stderr so `--json` stdout stays one document.
 */
import {
  changeRefusal,
  describeMigrationState,
  findPairNamed,
  pairNotFound,
  PROVIDER_KINDS,
  redactUrl,
  type BranchPairView,
  type ProviderKind,
} from '../../../shared/branches';
import type { BranchProgressEvent } from '../../../shared/contract';
import type { AppError, Result } from '../../../shared/result';
import type { HostSession } from '../../core/host-session';
import { flag, JSON_OPTION, text, type Command, type Values } from '../command';
import { EXIT, UsageError, type ExitCode } from '../exit-codes';
import { printJson, type Io } from '../io';
import { failed, withProject } from '../open-project';
import { describeRemoval, formatDiff, formatGc, formatList, progressPrinter } from './branch-format';

const SUBCOMMANDS = {
  create: { args: ['git-branch'], options: ['parent', 'ttl-hours', 'show-secret'] },
  delete: { args: ['name'], options: ['yes'] },
  list: { args: [], options: ['migrations'] },
  reset: { args: ['name'], options: ['yes'] },
  diff: { args: ['name'], options: [] },
  gc: { args: [], options: ['dry-run', 'yes'] },
  url: { args: ['name'], options: ['show-secret'] },
  adopt: { args: ['database'], options: ['as'] },
} as const;
type Sub = keyof typeof SUBCOMMANDS;
const COMMON = ['json', 'project', 'provider', 'url', 'help', 'version'];

const SYNOPSIS =
  'branch <create|delete|list|reset|diff|gc|url|adopt> [args] [--project DIR] [--provider pglite|postgres|neon|lakebase] [--url ADMIN_URL] [--json]';
const SUBCOMMAND_USAGE = `
  branch create <git-branch> [--parent P] [--ttl-hours N|none] [--show-secret]
  branch delete <name> --yes           (without --yes: shows what would be removed)
  branch list [--migrations]          (--migrations: each database against its code's migrations)
  branch reset <name> --yes            (fork the database again from its parent)
  branch diff <name>                   (schema against the parent's)
  branch gc [--dry-run] [--yes]        (orphans and expired pairs; never tiers or active pairs)
  branch url <name> [--show-secret]
  branch adopt <database> --as <git-branch>   (pair a tier, e.g. the default branch, with an existing database)`;

export const branchCommand: Command = {
  name: 'branch',
  synopsis: SYNOPSIS,
  summary: 'Branch pairs: a git branch and worktree with its own Postgres database branch',
  options: {
    ...JSON_OPTION,
    project: { type: 'string' },
    provider: { type: 'string' },
    url: { type: 'string' },
    parent: { type: 'string' },
    'ttl-hours': { type: 'string' },
    'show-secret': { type: 'boolean', default: false },
    yes: { type: 'boolean', default: false },
    'dry-run': { type: 'boolean', default: false },
    as: { type: 'string' },
    migrations: { type: 'boolean', default: false },
  },
  async run(positionals, values, io) {
    const [sub, ...args] = positionals;
    if (!sub || !(sub in SUBCOMMANDS)) throw new UsageError(`branch needs one of these subcommands${sub ? ` (not "${sub}")` : ''}:${SUBCOMMAND_USAGE}`);
    const spec = SUBCOMMANDS[sub as Sub];
    if (args.length !== spec.args.length) {
      throw new UsageError(
        `branch ${sub} takes ${spec.args.length ? spec.args.map((a) => `<${a}>`).join(' ') : 'no arguments'}; got ${args.length ? args.join(' ') : 'none'}.`,
      );
    }
    for (const [key, value] of Object.entries(values)) {
      const given = value !== undefined && value !== false;
      if (given && !COMMON.includes(key) && !(spec.options as readonly string[]).includes(key))
        throw new UsageError(`--${key} does not apply to branch ${sub}.`);
    }
    const provider = providerOption(values);
    const ttlHours = ttlOption(values);
    const postgresUrl = text(values, 'url');
    const json = flag(values, 'json');
    // What the channels do not carry: the provider and admin URL to use, the new pairs' time-to-live.
    const branches = { ...(provider ? { provider } : {}), ...(postgresUrl ? { postgresUrl } : {}), ...(ttlHours !== undefined ? { ttlHours } : {}) };
    return withProject(
      text(values, 'project') ?? '.',
      json,
      io,
      async (session) => {
        const opId = `cli-${process.pid}-${sub}`;
        const print = progressPrinter(io);
        const stopProgress = session.workbench.onEvent((event, payload) => {
          if (event === 'branches:progressed') print((payload as BranchProgressEvent).event);
        });
        const onSigint = () => void session.call('branches:cancel', { opId });
        process.once('SIGINT', onSigint);
        try {
          return await SUBS[sub as Sub]({ session, opId, name: args[0] ?? '', values, io, json });
        } finally {
          process.removeListener('SIGINT', onSigint);
          stopProgress();
        }
      },
      undefined,
      { branches },
    );
  },
};

interface SubContext {
  readonly session: HostSession;
  /** Names this command's operation, so Ctrl+C can cancel it through `branches:cancel`. */
  readonly opId: string;
  /** The subcommand's argument (a git branch or a pair's name), or '' for none. */
  readonly name: string;
  readonly values: Values;
  readonly io: Io;
  readonly json: boolean;
}

/** The provider the session opened (`branches:status`), for what the output names. */
async function providerOf(session: HostSession): Promise<ProviderKind | null> {
  const status = await session.call('branches:status', {});
  return status.ok ? status.value.provider : null;
}

/** Prints a refusal or a failure; or hands the value on. */
function answered<T>(io: Io, json: boolean, result: Result<T>, then: (value: T) => Promise<ExitCode> | ExitCode): Promise<ExitCode> | ExitCode {
  return result.ok ? then(result.value) : failed(io, result.error, json);
}

const SUBS: Record<Sub, (c: SubContext) => Promise<ExitCode>> = {
  async create({ session, opId, name, values, io, json }) {
    const parent = text(values, 'parent');
    const created = await session.call('branches:create', { opId, gitBranch: name, ...(parent !== undefined ? { parent } : {}) });
    if (!created.ok) return failed(io, created.error, json);
    // The channel never carries a password; --show-secret asks the Workbench for the real URL.
    const url = flag(values, 'show-secret') ? await session.workbench.branchUrl({ opId, name: created.value.name }) : null;
    if (url && !url.ok) return failed(io, url.error, json);
    const shown = { ...created.value, connectionUrl: url ? url.value : created.value.connectionUrl, provider: await providerOf(session) };
    if (json) printJson(io, shown);
    else {
      io.out(`Created the pair ${shown.name} in ${shown.createdMs} ms`);
      io.out(`  git branch: ${shown.gitBranch} (from ${shown.parent}), worktree ${shown.worktree}`);
      io.out(`  database:   ${shown.database} (${shown.provider}${shown.masked ? ', masked' : ''})`);
      io.out(`  url:        ${shown.connectionUrl}`);
    }
    return EXIT.ok;
  },

  async delete({ session, opId, name, values, io, json }) {
    if (!flag(values, 'yes')) {
      const preview = await previewChange(session, name, 'deleted');
      if (!preview.ok) return failed(io, preview.error, json);
      return confirmationNeeded(io, json, `delete ${preview.value.pair.name}`, describeRemoval(preview.value.pair, preview.value.provider));
    }
    const pairs = await session.call('branches:list', {});
    if (!pairs.ok) return failed(io, pairs.error, json);
    const pair = findPairNamed(pairs.value.pairs, name);
    const removal = pair ? describeRemoval(pair, pairs.value.provider) : [];
    return answered(io, json, await session.call('branches:delete', { opId, name }), (deleted) => {
      if (json) printJson(io, { deleted: deleted.name, removed: removal });
      else io.out(`Deleted the pair ${deleted.name}:\n  ${removal.join('\n  ')}`);
      return EXIT.ok;
    });
  },

  async list({ session, opId, values, io, json }) {
    return answered(io, json, await session.call('branches:list', {}), async (view) => {
      const status = await session.call('branches:status', {});
      const warnings = status.ok ? status.value.warnings : [];
      const checked = flag(values, 'migrations') ? await session.workbench.branchMigrations({ opId }) : null;
      if (checked && !checked.ok) return failed(io, checked.error, json);
      const migrations = checked?.value ?? null;
      if (json) printJson(io, { ...view, warnings, ...(migrations ? { migrations } : {}) });
      else {
        io.out(formatList(view, new Date()));
        if (migrations) io.out(`\nMigrations:\n${migrations.map((m) => `  ${describeMigrationState(m.name, m.migrations)}`).join('\n')}`);
        for (const warning of warnings) io.out(`\nNote: ${warning}`);
      }
      const off = migrations?.some((m) => m.migrations.state === 'database-ahead' || m.migrations.state === 'diverged');
      return off ? EXIT.problems : EXIT.ok;
    });
  },

  async reset({ session, opId, name, values, io, json }) {
    if (!flag(values, 'yes')) {
      const preview = await previewChange(session, name, 'reset');
      if (!preview.ok) return failed(io, preview.error, json);
      const { pair, provider } = preview.value;
      const what = [
        `database branch ${pair.name} (${provider}): all its rows and schema changes are replaced by a fresh fork of ${pair.parent ?? 'its parent'}`,
      ];
      return confirmationNeeded(io, json, `reset ${pair.name}`, what);
    }
    return answered(io, json, await session.call('branches:reset', { opId, name }), (reset) => {
      if (json) printJson(io, reset);
      else io.out(`Reset ${reset.name} from ${reset.parent ?? 'its parent'}${reset.masked ? ' (masked)' : ''}.`);
      return EXIT.ok;
    });
  },

  async diff({ session, opId, name, io, json }) {
    return answered(io, json, await session.call('branches:diff', { opId, name }), (diff) => {
      if (json) printJson(io, diff);
      else io.out(formatDiff(diff));
      return EXIT.ok;
    });
  },

  async gc({ session, opId, values, io, json }) {
    const dryRun = flag(values, 'dry-run') || !flag(values, 'yes');
    return answered(io, json, await session.workbench.collectBranches({ opId, dryRun }), (report) => {
      if (json) printJson(io, report);
      else io.out(formatGc(report));
      if (dryRun && !flag(values, 'dry-run') && (report.removed.length || report.leftovers.length)) {
        io.err('baton: nothing was removed. Re-run with --yes to remove what is listed above (or --dry-run to only list it).');
        return EXIT.problems;
      }
      return EXIT.ok;
    });
  },

  async adopt({ session, opId, name, values, io, json }) {
    const gitBranch = text(values, 'as');
    if (!gitBranch) throw new UsageError('branch adopt needs --as <git-branch>: the tier branch (usually the default branch) the database pairs with.');
    return answered(io, json, await session.workbench.adoptBranch({ opId, database: name, gitBranch }), (adopted) => {
      if (json) printJson(io, adopted);
      else {
        io.out(`${adopted.gitBranch} now pairs with the database ${adopted.name}; new pairs from ${adopted.gitBranch} are forked from it.`);
        if (adopted.replaced) io.out(`  It paired with ${adopted.replaced} before; that database was left as it was.`);
      }
      return EXIT.ok;
    });
  },

  async url({ session, opId, name, values, io, json }) {
    return answered(io, json, await session.workbench.branchUrl({ opId, name }), (real) => {
      const url = flag(values, 'show-secret') ? real : redactUrl(real);
      if (json) printJson(io, { name, connectionUrl: url });
      else io.out(url);
      return EXIT.ok;
    });
  },
};

/**
 * The pair a destructive subcommand would change, for the confirmation: refused first (in the
 * words the service refuses with) when it cannot be changed, so the prompt never offers the impossible.
 */
async function previewChange(session: HostSession, name: string, verb: 'deleted' | 'reset'): Promise<Result<{ pair: BranchPairView; provider: ProviderKind }>> {
  const listed = await session.call('branches:list', {});
  if (!listed.ok) return listed;
  const { pairs, provider } = listed.value;
  const pair = findPairNamed(pairs, name);
  const refusal: AppError | null = pair ? changeRefusal(pair, verb, verb === 'deleted' ? pairs : []) : pairNotFound(name);
  return refusal ? { ok: false, error: refusal } : { ok: true, value: { pair: pair!, provider } };
}

function confirmationNeeded(io: Io, json: boolean, action: string, removal: readonly string[]): ExitCode {
  const message = `${action} needs confirmation: nothing was changed. Re-run with --yes to do it.`;
  if (json) printJson(io, { ok: false, wouldRemove: removal, error: { code: 'confirmation-required', message } });
  else io.out(`This would remove:\n  ${removal.join('\n  ')}`);
  io.err(`baton: ${message}`);
  return EXIT.problems;
}

function providerOption(values: Values): ProviderKind | undefined {
  const value = text(values, 'provider');
  if (value === undefined) return undefined;
  if (!(PROVIDER_KINDS as readonly string[]).includes(value)) throw new UsageError(`--provider must be one of ${PROVIDER_KINDS.join(', ')}; got "${value}".`);
  return value as ProviderKind;
}

function ttlOption(values: Values): number | null | undefined {
  const value = text(values, 'ttl-hours');
  if (value === undefined) return undefined;
  if (value === 'none') return null;
  const hours = Number(value);
  if (!Number.isFinite(hours) || hours <= 0) throw new UsageError(`--ttl-hours takes a number of hours above 0, or "none"; got "${value}".`);
  return hours;
}
