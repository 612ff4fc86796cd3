/** The browser host's transport: the contract over a token-guarded WebSocket to 127.0.0.1. */
import type { BatonApi, Channel, EventName, Events, RequestOf, ResponseOf } from '../../shared/contract';
import type { Result } from '../../shared/result';
import { TOKEN_PARAM, WS_PATH, type ServerFrame } from '../../shared/wire';

type Pending = (result: Result<unknown>) => void;

export function createWsClient(location: Location): BatonApi {
  const token = new URLSearchParams(location.search).get(TOKEN_PARAM) ?? '';
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${WS_PATH}?${TOKEN_PARAM}=${encodeURIComponent(token)}`;
  const pending = new Map<number, Pending>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let nextId = 1;
  let closedReason: string | null = null;

  const socket = new WebSocket(url);
  let markSettled: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    markSettled = resolve;
    socket.addEventListener('open', () => resolve(), { once: true });
  });

  socket.addEventListener('message', (message) => {
    const frame = JSON.parse(String(message.data)) as ServerFrame;
    if (frame.kind === 'result') {
      pending.get(frame.id)?.(frame.result);
      pending.delete(frame.id);
    } else {
      listeners.get(frame.event)?.forEach((listener) => listener(frame.payload));
    }
  });

  socket.addEventListener('close', () => {
    // The browser hides why a handshake failed (a refused token and a stopped host both close with
    // 1006), so the message names both causes unless the link plainly has no token.
    closedReason = !token
      ? 'This link has no Baton token. Open the exact URL that `baton serve` printed (it ends in ?token=...).'
      : "Not connected to the Baton host: it refused this link's token or has stopped. Open the exact URL that `baton serve` printed, or start it again.";
    // Settle `opened` only after the reason is known, so waiting invokes report it.
    markSettled();
    for (const resolve of pending.values()) resolve({ ok: false, error: { code: 'disconnected', message: closedReason } });
    pending.clear();
  });

  return {
    async invoke<C extends Channel>(channel: C, request: RequestOf<C>): Promise<Result<ResponseOf<C>>> {
      await opened;
      if (socket.readyState !== WebSocket.OPEN) {
        return {
          ok: false,
          error: { code: 'disconnected', message: closedReason ?? 'Not connected to the Baton host. Reload the page.' },
        };
      }
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve as Pending);
        socket.send(JSON.stringify({ id, channel, request }));
      });
    },
    on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      const wrapped = listener as (payload: unknown) => void;
      set.add(wrapped);
      return () => set.delete(wrapped);
    },
  };
}
