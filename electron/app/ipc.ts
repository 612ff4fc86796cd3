/**
 * Binds the contract to Electron IPC. The only main-side code that touches ipcMain.
 * Every handler checks that the sender is our own top-level renderer page before dispatching
 * (guardedIpcHandler, tested in guards.test.ts).
 */
import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { CHANNELS } from '../../shared/contract';
import { dispatch } from '../core/dispatch';
import type { Handlers } from '../core/handlers';
import type { Workbench } from '../core/workbench';
import { guardedIpcHandler } from './guards';

export function bindContract(handlers: Handlers, isTrustedUrl: (url: unknown) => boolean): void {
  for (const channel of CHANNELS) {
    const handle = guardedIpcHandler(isTrustedUrl, (payload) => dispatch(handlers, channel, payload));
    ipcMain.handle(channel, (event: IpcMainInvokeEvent, payload: unknown) => handle(event, payload));
  }
}

/** Pushes workbench events to one window's renderer. */
export function forwardEvents(workbench: Workbench, contents: WebContents): () => void {
  return workbench.onEvent((event, payload) => {
    if (!contents.isDestroyed()) contents.send(event, payload);
  });
}
