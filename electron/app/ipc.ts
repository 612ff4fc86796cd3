/**
 * Binds the contract to Electron IPC. The only main-side code that touches ipcMain.
 * Every handler checks that the sender is our own top-level renderer page before dispatching.
 */
import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { CHANNELS } from '../../shared/contract';
import { err } from '../../shared/result';
import { dispatch } from '../core/dispatch';
import type { Handlers } from '../core/handlers';
import type { Workbench } from '../core/workbench';

export function bindContract(handlers: Handlers, isTrustedUrl: (url: string) => boolean): void {
  for (const channel of CHANNELS) {
    ipcMain.handle(channel, (event: IpcMainInvokeEvent, payload: unknown) => {
      const frame = event.senderFrame;
      if (!frame || frame.parent !== null || !isTrustedUrl(frame.url)) {
        return err('forbidden-sender', 'Refused: this request did not come from the Baton window.');
      }
      return dispatch(handlers, channel, payload);
    });
  }
}

/** Pushes workbench events to one window's renderer. */
export function forwardEvents(workbench: Workbench, contents: WebContents): () => void {
  return workbench.onEvent((event, payload) => {
    if (!contents.isDestroyed()) contents.send(event, payload);
  });
}
