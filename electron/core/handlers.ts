/** One handler per contract channel. The mapped type makes a missing channel a compile error. */
import type { Channel, RequestOf, ResponseOf } from '../../shared/contract';
import { ok, type Result } from '../../shared/result';
import type { Workbench } from './workbench';
import { agentSettings, checkAgent, saveAgent } from './agent-settings';
import { metricsScreenOf } from './metrics-screen';
import { checkProjectSettings, projectSettings, saveProjectSettings } from './project-settings';

export type Handlers = {
  [C in Channel]: (request: RequestOf<C>) => Promise<Result<ResponseOf<C>>>;
};

export function createHandlers(workbench: Workbench): Handlers {
  return {
    'app:info': async () => ok({ version: workbench.options.version, host: hostKind(workbench) }),
    'app:badge': async ({ count }) => ok({ shown: workbench.options.setBadge?.(count) ?? false }),
    'project:open': (request) => workbench.open(request.path),
    'project:current': async () => ok(workbench.project),
    'project:reload': () => workbench.reload(),
    'project:recent': async () => ok(await workbench.recent()),
    'project:pick': () => workbench.pick(),
    'identity:default': async () => ok(await workbench.identity()),
    'gates:evidence': (request) => workbench.evidence(request),
    'gates:approve': (request) => workbench.approve(request),
    'gates:reject': (request) => workbench.reject(request),
    'escalations:decide': (request) => workbench.decideEscalation(request),
    'tells:allow': (request) => workbench.allowTells(request),
    'amendments:propose': (request) => workbench.proposeAmendment(request),
    'amendments:decide': (request) => workbench.decideAmendment(request),
    'features:new': (request) => workbench.newFeature(request),
    'gates:withdraw': (request) => workbench.withdraw(request),
    'gates:restore': (request) => workbench.restore(request),
    'ledger:list': (request) => workbench.ledgerPage(request.offset, request.limit),
    'ledger:blob': (request) => workbench.blob(request.sha256, request.offset, request.limit),
    'ledger:verify': (request) => workbench.verify(request),
    'metrics:get': (request) => metricsScreenOf(workbench, request.feature),
    'branches:status': () => workbench.branchStatus(),
    'branches:list': () => workbench.listBranches(),
    'branches:create': (request) => workbench.createBranch(request),
    'branches:delete': (request) => workbench.deleteBranch(request),
    'branches:reset': (request) => workbench.resetBranch(request),
    'branches:diff': (request) => workbench.diffBranch(request),
    'branches:migrations': (request) => workbench.branchMigrations(request),
    'branches:cancel': async (request) => ok(workbench.cancelBranchOp(request.opId)),
    'run:start': (request) => workbench.startRun(request),
    'run:stop': async () => ok(workbench.stopRun()),
    'run:state': () => workbench.runState(),
    'agents:settings': () => agentSettings(workbench.project, workbench.options.configDir),
    'agents:save': (request) => saveAgent(workbench.project, request.role, request.config, workbench.options.configDir),
    'agents:check': (request) => checkAgent(request.role, request.config),
    'settings:project': () => projectSettings(workbench.project),
    'settings:check': (request) => checkProjectSettings(workbench.project, request.changes),
    'settings:save': (request) => saveProjectSettings(workbench.project, request.changes),
  };
}

const hostKind = (workbench: Workbench): 'electron' | 'browser' => (workbench.options.host === 'electron' ? 'electron' : 'browser');
