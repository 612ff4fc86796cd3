/** One handler per contract channel. The mapped type makes a missing channel a compile error. */
import type { Channel, RequestOf, ResponseOf } from '../../shared/contract';
import { err, ok, type Result } from '../../shared/result';
import type { Workbench } from './workbench';

export type Handlers = {
  [C in Channel]: (request: RequestOf<C>) => Promise<Result<ResponseOf<C>>>;
};

const notYet = async () => err('not-implemented', 'This part of Baton is being built.');

export function createHandlers(workbench: Workbench): Handlers {
  return {
    'app:info': async () => ok({ version: workbench.options.version, host: hostKind(workbench) }),
    'project:open': (request) => workbench.open(request.path),
    'project:current': async () => ok(workbench.project),
    'project:reload': () => workbench.reload(),
    'project:recent': async () => ok(await workbench.recent()),
    'project:pick': () => workbench.pick(),
    'identity:default': notYet,
    'gates:evidence': notYet,
    'gates:approve': notYet,
    'gates:reject': notYet,
    'gates:withdraw': notYet,
    'ledger:list': notYet,
    'ledger:blob': notYet,
    'ledger:verify': notYet,
  };
}

const hostKind = (workbench: Workbench): 'electron' | 'browser' =>
  workbench.options.host === 'electron' ? 'electron' : 'browser';
