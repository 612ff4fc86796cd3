/**
 * The sandboxed preload: exposes the contract, and only the contract, as `window.baton`.
 * Unknown channels are refused here before they reach main; listeners never see the IPC event.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { BRIDGE_KEY, isChannel, isEventName } from '../../shared/channel-names';

const api = {
  invoke: (channel: unknown, request: unknown): Promise<unknown> => {
    if (!isChannel(channel)) {
      return Promise.resolve({
        ok: false,
        error: { code: 'forbidden-channel', message: `"${String(channel).slice(0, 64)}" is not a channel of the Baton contract.` },
      });
    }
    return ipcRenderer.invoke(channel, request);
  },
  on: (event: unknown, listener: (payload: unknown) => void): (() => void) => {
    if (!isEventName(event) || typeof listener !== 'function') return () => undefined;
    const strip = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(event, strip);
    return () => ipcRenderer.removeListener(event, strip);
  },
};

contextBridge.exposeInMainWorld(BRIDGE_KEY, api);
