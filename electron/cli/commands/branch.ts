/**
 * `baton branch create|delete|list|reset|diff|gc|url`: branch pairs (a git branch with its
 * worktree, and a database branch) from a terminal. Destructive subcommands show what they would
 * remove and need `--yes`. Connection URLs are printed with the password redacted unless
 * `--show-secret`; progress goes to stderr so `--json` stdout stays one document.
 */
import { PROVIDER_KINDS, redactUrl, type BranchPairView, type ProviderKind } from '../../../shared/branches';
import { BranchError } from '../../branches/provider';
import { join } from 'node:path';
import { openBranchService } from '../../branches/service';
import { Ledger } from '../../ledger';
import type { BranchService } from '../../branches/service-api';
import { loadBranchSettings } from '../../core/branches-settings';
import { branchFailure } from '../../core/branches-errors';
import { flag, JSON_OPTION, text, type Command, type Values } from '../command';
import { EXIT, UsageError, type ExitCode } from '../exit-codes';
import { printError, printJson, type Io } from '../io';
import { withProject } from '../open-project';
import { describeRemoval, formatDiff, formatGc, formatList, progressPrinter } from './branch-format';

const SUBCOMMANDS = {
  create: { args: ['git-branch'], options: ['parent', 'ttl-hours', 'show-secret'] },
  delete: { args: ['name'], options: ['yes'] },
  list: { args: [], options: [] },
  reset: { args: ['name'], options: ['yes'] },
  diff: { args: ['name'], options: [] },
  gc: { args: [], options: ['dry-run', 'yes'] },
  url: { args: ['name'], options: ['show-secret'] },
} as const;
type Sub = keyof typeof SUBCOMMANDS;
const COMMON = ['json', 'project', 'provider', 'url', 'help', 'version'];

const SYNOPSIS = 'branch <create|delete|list|reset|diff|gc|url> [args] [--project DIR] [--provider pglite|postgres|neon|lakebase] [--url ADMIN_URL] [--json]';
const SUBCOMMAND_USAGE = `
  branch create <git-branch> [--parent P] [--ttl-hours N|none] [--show-secret]
  branch delete <name> --yes           (without --yes: shows what would be removed)
  branch list
  branch reset <name> --yes            (fork the database again from its parent)
  branch diff <name>                   (schema against the parent's)
  branch gc [--dry-run] [--yes]        (orphans and expired pairs; never tiers or active pairs)
  branch url <name> [--show-secret]`;

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
    const json = flag(values, 'json');
    return withProject(text(values, 'project') ?? '.', json, io, async (_workbench, view) => {
      const loaded = await loadBranchSettings(view);
      if (!loaded.ok) {
        printError(io, loaded.error, json);
        return EXIT.problems;
      }
      const controller = new AbortController();
      const onSigint = () => controller.abort();
      process.once('SIGINT', onSigint);
      let service: BranchService | null = null;
      try {
        const postgresUrl = text(values, 'url');
        service = await openBranchService({
          root: view.root,
          ledger: Ledger.forArtifactRoot(join(view.root, '.baton')),
          settings: loaded.value.settings,
          ...(provider ? { provider } : {}),
          ...(postgresUrl ? { postgresUrl } : {}),
        });
        const call = { signal: controller.signal, onProgress: progressPrinter(io) };
        return await SUBS[sub as Sub]({ service, args, values, io, json, call, ttlHours });
      } catch (cause) {
        printError(io, branchFailure(cause, `branch ${sub}`), json);
        return EXIT.problems;
      } finally {
        process.removeListener('SIGINT', onSigint);
        await service?.close();
      }
    });
  },
};

interface SubContext {
  readonly service: BranchService;
  readonly args: string[];
  readonly values: Values;
  readonly io: Io;
  readonly json: boolean;
  readonly call: { signal: AbortSignal; onProgress: ReturnType<typeof progressPrinter> };
  readonly ttlHours: number | null | undefined;
}

const showUrl = (url: string, values: Values) => (flag(values, 'show-secret') ? url : redactUrl(url));

const SUBS: Record<Sub, (c: SubContext) => Promise<ExitCode>> = {
  async create({ service, args, values, io, json, call, ttlHours }) {
    const parent = text(values, 'parent');
    const created = await service.create(args[0]!, { ...call, ...(parent ? { parent } : {}), ...(ttlHours !== undefined ? { ttlHours } : {}) });
    const shown = { ...created, connectionUrl: showUrl(created.connectionUrl, values), provider: service.kind };
    if (json) printJson(io, shown);
    else {
      io.out(`Created the pair ${shown.name} in ${shown.createdMs} ms`);
      io.out(`  git branch: ${shown.gitBranch} (from ${shown.parent}), worktree ${shown.worktree}`);
      io.out(`  database:   ${shown.database} (${shown.provider}${shown.masked ? ', masked' : ''})`);
      io.out(`  url:        ${shown.connectionUrl}`);
    }
    return EXIT.ok;
  },

  async delete({ service, args, values, io, json, call }) {
    const pairs = (await service.list(call)).pairs;
    const pair = findPair(pairs, args[0]!);
    refuseIfUntouchable(pair, pairs, 'deleted');
    const removal = describeRemoval(pair, service.kind);
    if (!flag(values, 'yes')) return confirmationNeeded(io, json, `delete ${pair.name}`, removal);
    await service.delete(pair.name, call);
    if (json) printJson(io, { deleted: pair.name, removed: removal });
    else io.out(`Deleted the pair ${pair.name}:\n  ${removal.join('\n  ')}`);
    return EXIT.ok;
  },

  async list({ service, io, json, call }) {
    const view = await service.list(call);
    if (json) printJson(io, view);
    else io.out(formatList(view, new Date()));
    return EXIT.ok;
  },

  async reset({ service, args, values, io, json, call }) {
    const pairs = (await service.list(call)).pairs;
    const pair = findPair(pairs, args[0]!);
    refuseIfUntouchable(pair, [], 'reset');
    const what = [
      `database branch ${pair.name} (${service.kind}): all its rows and schema changes are replaced by a fresh fork of ${pair.parent ?? 'its parent'}`,
    ];
    if (!flag(values, 'yes')) return confirmationNeeded(io, json, `reset ${pair.name}`, what);
    const reset = await service.reset(pair.name, call);
    if (json) printJson(io, reset);
    else io.out(`Reset ${reset.name} from ${reset.parent ?? 'its parent'}${reset.masked ? ' (masked)' : ''}.`);
    return EXIT.ok;
  },

  async diff({ service, args, io, json, call }) {
    const diff = await service.diff(args[0]!, call);
    if (json) printJson(io, diff);
    else io.out(formatDiff(diff));
    return EXIT.ok;
  },

  async gc({ service, values, io, json, call }) {
    const dryRun = flag(values, 'dry-run') || !flag(values, 'yes');
    const report = await service.gc({ ...call, dryRun });
    if (json) printJson(io, report);
    else io.out(formatGc(report));
    if (dryRun && !flag(values, 'dry-run') && (report.removed.length || report.leftovers.length)) {
      io.err('baton: nothing was removed. Re-run with --yes to remove what is listed above (or --dry-run to only list it).');
      return EXIT.problems;
    }
    return EXIT.ok;
  },

  async url({ service, args, values, io, json, call }) {
    const url = showUrl(await service.connectionUrl(args[0]!, call), values);
    if (json) printJson(io, { name: args[0], connectionUrl: url });
    else io.out(url);
    return EXIT.ok;
  },
};

function findPair(pairs: readonly BranchPairView[], name: string): BranchPairView {
  const pair = pairs.find((p) => p.name === name) ?? pairs.find((p) => p.gitBranch === name);
  if (!pair) throw new BranchError('not-found', `No branch pair named "${name}". Run \`baton branch list\` to see the pairs.`);
  return pair;
}

/** The service refuses these too; checking first keeps the confirmation from offering the impossible. */
function refuseIfUntouchable(pair: BranchPairView, pairs: readonly BranchPairView[], verb: string): void {
  if (pair.kind === 'tier') throw new BranchError('protected', `"${pair.name}" is a ${pair.tier ?? 'protected'} tier: tiers are never ${verb}.`);
  if (pair.active)
    throw new BranchError('busy', `"${pair.name}" is in use by a running cycle, so it cannot be ${verb} now. Try again when the cycle has finished.`);
  const children = pairs.filter((p) => p.parent === pair.name || p.database?.parent === pair.name);
  if (children.length)
    throw new BranchError('has-children', `"${pair.name}" has child branches (${children.map((c) => c.name).join(', ')}). Delete them first.`);
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
