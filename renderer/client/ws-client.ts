/**
 * The browser host's transport: the contract over a token-guarded WebSocket to 127.0.0.1. The host
 * closes a connection idle too long (4000) or, at its connection limit, the longest-idle one (4001):
 * the page then connects again on its next request and re-reads the project, so a tab left open is
 * never stale and never locks other tabs out. Any other close means the host is gone or refused the link.
 */
import type { BatonApi, Channel, EventName, Events, RequestOf, ResponseOf } from '../../shared/contract';
import type { Result } from '../../shared/result';
import { TOKEN_PARAM, WS_PATH, type ServerFrame } from '../../shared/wire';

type Pending = (result: Result<unknown>) => void;

/** The host's "idle" and "evicted" close codes (electron/host/server.ts): reconnect when used. */
const RECONNECT_CODES: ReadonlySet<number> = new Set([4000, 4001]);

interface Connection {
  readonly socket: WebSocket;
  /** Settles once the socket is open or closed. */
  readonly opened: Promise<void>;
}

export function createWsClient(location: Location): BatonApi {
  const token = new URLSearchParams(location.search).get(TOKEN_PARAM) ?? '';
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${WS_PATH}?${TOKEN_PARAM}=${encodeURIComponent(token)}`;
  const pending = new Map<number, Pending>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let nextId = 1;
  let closedReason: string | null = null;
  /** Set when the host closed an idle connection: the next request opens a new one. */
  let reconnect = false;

  const emit = (event: string, payload: unknown) => listeners.get(event)?.forEach((listener) => listener(payload));

  const connect = (): Connection => {
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
      } else emit(frame.event, frame.payload);
    });
    socket.addEventListener('close', (event) => {
      reconnect = RECONNECT_CODES.has(event.code);
      // The browser hides why a handshake failed (a refused token and a stopped host both close with
      // 1006), so the message names both causes unless the link plainly has no token.
      closedReason = reconnect
        ? 'The Baton host closed this idle connection; the request was not sent. Try again.'
        : !token
          ? 'This link has no Baton token. Open the exact URL that `baton serve` printed (it ends in ?token=...).'
          : "Not connected to the Baton host: it refused this link's token or has stopped. Open the exact URL that `baton serve` printed, or start it again.";
      // Settle `opened` only after the reason is known, so waiting invokes report it.
      markSettled();
      for (const resolve of pending.values()) resolve({ ok: false, error: { code: 'disconnected', message: closedReason } });
      pending.clear();
    });
    return { socket, opened };
  };

  let current = connect();

  /** The open connection, connecting again first when the host closed the last one for idleness. */
  const connection = async (): Promise<Connection> => {
    if (reconnect && current.socket.readyState === WebSocket.CLOSED) {
      reconnect = false;
      current = connect();
      await current.opened;
      // Events were missed while closed: the project is read again, as a change.
      if (current.socket.readyState === WebSocket.OPEN) void send('project:current', {}).then((r) => r.ok && r.value && emit('project:changed', r.value));
    }
    await current.opened;
    return current;
  };

  async function send<C extends Channel>(channel: C, request: RequestOf<C>): Promise<Result<ResponseOf<C>>> {
    const { socket } = await connection();
    if (socket.readyState !== WebSocket.OPEN) {
      return { ok: false, error: { code: 'disconnected', message: closedReason ?? 'Not connected to the Baton host. Reload the page.' } };
    }
    const id = nextId++;
    return new Promise((resolve) => {
      pending.set(id, resolve as Pending);
      socket.send(JSON.stringify({ id, channel, request }));
    });
  }

  return {
    invoke: send,
    on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      const wrapped = listener as (payload: unknown) => void;
      set.add(wrapped);
      return () => set.delete(wrapped);
    },
  };
}
