/**
 * The renderer's one way to main: the preload bridge inside Electron, otherwise the browser
 * host's WebSocket. Components import `api` and never know which transport carries it.
 */
import { BRIDGE_KEY, type BatonApi } from '../../shared/contract';
import { createWsClient } from './ws-client';

function pickTransport(): BatonApi {
  const bridge = (window as unknown as Record<string, BatonApi | undefined>)[BRIDGE_KEY];
  return bridge ?? createWsClient(window.location);
}

export const api: BatonApi = pickTransport();
