/**
 * `baton deploy <dir> [--feature F]`: the orchestrator's deploy of a feature — its branch's
 * committed code started on a migrated throwaway copy of its database, the health check, the
 * verify run, the app stopped — and the deploy evidence Baton writes and records. Exit 1 when the
 * deploy gate would refuse that evidence (a failed deploy is recorded all the same).
 */
import type { ShipOptions } from '../../core/project-tools';
import { projectTools } from '../core';
import { flag, JSON_OPTION, onePath, text, type Command, type Values } from '../command';
import { EXIT } from '../exit-codes';
import { printJson, type Io } from '../io';
import { failed, withProject } from '../open-project';
import { parseProvider } from './run';

/** The options `deploy` and `promote` share: which feature, which provider and admin URL. */
export const SHIP_OPTIONS = { ...JSON_OPTION, feature: { type: 'string' }, provider: { type: 'string' }, url: { type: 'string' } } as const;

/** Those options as the core functions take them, with the commands' output streamed to stderr. */
export function shipOptions(values: Values, io: Io): Omit<ShipOptions, 'root'> {
  const feature = text(values, 'feature');
  const provider = parseProvider(text(values, 'provider'));
  const postgresUrl = text(values, 'url');
  return {
    ...(feature ? { feature } : {}),
    ...(provider ? { provider } : {}),
    ...(postgresUrl ? { postgresUrl } : {}),
    onOutput: (line) => io.err(line.replace(/\n$/, '')),
  };
}

export const deployCommand: Command = {
  name: 'deploy',
  synopsis: 'deploy <dir> [--feature F] [--provider P] [--url ADMIN_URL] [--json]',
  summary: "Deploy a feature's branch as project.json's deploy says, verify it, and record the deploy evidence",
  options: SHIP_OPTIONS,
  async run(positionals, values, io) {
    const json = flag(values, 'json');
    const root = onePath(positionals, this.synopsis);
    const options = shipOptions(values, io);
    return withProject(
      root,
      json,
      io,
      async (session) => {
        const deployed = await (await projectTools()).deployOpenProject(session.workbench, options);
        if (!deployed.ok) return failed(io, deployed.error, json);
        const { evidence, problem } = deployed.value;
        if (json)
          printJson(io, {
            feature: deployed.value.feature,
            commit: deployed.value.commit,
            record: deployed.value.record,
            file: deployed.value.file,
            problem,
            evidence,
          });
        else {
          io.out(`Deployed ${deployed.value.feature} (commit ${deployed.value.commit.slice(0, 12)}) to ${evidence.target} at ${evidence.url}`);
          io.out(
            `  health:  ${evidence.health.ok ? 'answered' : 'did not answer'} ${evidence.health.url ?? ''}${evidence.health.status ? ` (${evidence.health.status})` : ''}`,
          );
          io.out(`  verify:  ${evidence.verify.passed ? 'passed' : 'failed'} — ${evidence.verify.summary ?? ''}`);
          io.out(`  app:     ${evidence.ran.exit_code === 0 ? 'stopped by Baton' : `exited by itself with code ${evidence.ran.exit_code}`}`);
          io.out(`Evidence: ${deployed.value.file} · ledger record ${deployed.value.record.slice(0, 12)}…`);
          io.out(problem ? `The deploy gate will refuse this evidence: it ${problem}.` : 'The deploy gate can be decided on it.');
        }
        return problem ? EXIT.problems : EXIT.ok;
      },
      'runs',
    );
  },
};
