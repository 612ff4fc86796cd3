/**
 * How every host reaches the core: a Workbench, its handlers, and one typed call that goes through
 * dispatch — the same path the Electron app's IPC and the browser host's WebSocket take — so a
 * refusal written once in the core (or the contract's schemas) holds in all three hosts.
 */
import type { Channel, RequestOf, ResponseOf } from '../../shared/contract';
import type { ProjectView } from '../../shared/model';
import type { Result } from '../../shared/result';
import { dispatch } from './dispatch';
import { hostDefaults } from './host-defaults';
import { createHandlers, type Handlers } from './handlers';
import { Workbench, type WorkbenchOptions } from './workbench';

export interface HostSession {
  readonly workbench: Workbench;
  readonly handlers: Handlers;
  /** dispatch(handlers, channel, request), typed by the contract. */
  call<C extends Channel>(channel: C, request: RequestOf<C>): Promise<Result<ResponseOf<C>>>;
  close(): Promise<void>;
}

export { hostDefaults };

export function hostSession(options: WorkbenchOptions): HostSession {
  const workbench = new Workbench(options);
  const handlers = createHandlers(workbench);
  return {
    workbench,
    handlers,
    call: (channel, request) => dispatch(handlers, channel, request) as Promise<Result<ResponseOf<typeof channel>>>,
    close: () => workbench.close(),
  };
}

/** A session with `path` opened through `project:open`; on failure the session is closed again. */
export async function openHostSession(path: string, options: WorkbenchOptions): Promise<Result<{ session: HostSession; project: ProjectView }>> {
  const session = hostSession(options);
  const opened = await session.call('project:open', { path });
  if (!opened.ok) {
    await session.close();
    return opened;
  }
  return { ok: true, value: { session, project: opened.value } };
}
