import type { StationBridge, ClientFrame, ServerFrame } from '../../../shared/bridge';
import type { Result } from '../../../shared/result';

type Pending = (result: Result<unknown>) => void;

/**
 * The station bridge over the web host's WebSocket. The per-run token comes in the first URL;
 * it is moved to sessionStorage and removed from the address bar so it is not bookmarked or
 * shown on a warehouse monitor. Calls made while the socket is down wait for it to come back.
 */
export function connectWeb(onConnection: (connected: boolean) => void): StationBridge {
  const params = new URLSearchParams(location.search);
  const fromUrl = params.get('token');
  if (fromUrl) {
    sessionStorage.setItem('station-token', fromUrl);
    history.replaceState(null, '', location.pathname + location.hash);
  }
  const token = fromUrl ?? sessionStorage.getItem('station-token') ?? '';
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const pending = new Map<number, Pending>();
  const outbox: string[] = [];
  let nextId = 1;
  let socket: WebSocket | null = null;
  let retry = 250;

  const open = () => {
    const ws = new WebSocket(`ws://${location.host}/ws?token=${encodeURIComponent(token)}`);
    socket = ws;
    ws.onopen = () => {
      retry = 250;
      onConnection(true);
      for (const frame of outbox.splice(0)) ws.send(frame);
    };
    ws.onmessage = (message) => {
      const frame = JSON.parse(String(message.data)) as ServerFrame;
      if ('id' in frame) {
        pending.get(frame.id)?.(frame.result);
        pending.delete(frame.id);
      } else {
        for (const l of listeners.get(frame.event) ?? []) l(frame.payload);
      }
    };
    ws.onclose = () => {
      socket = null;
      onConnection(false);
      // Calls in flight may or may not have run; say so instead of guessing.
      for (const [id, resolve] of pending) {
        resolve({
          ok: false,
          error: {
            code: 'platform-unreachable',
            message: 'Lost the connection to the station host; check the result before repeating.',
          },
        });
        pending.delete(id);
      }
      setTimeout(open, retry);
      retry = Math.min(retry * 2, 5000);
    };
  };
  open();

  return {
    host: 'web',
    call(name, input) {
      const id = nextId++;
      const frame: ClientFrame = { id, call: name, input };
      return new Promise((resolve) => {
        pending.set(id, resolve as Pending);
        const text = JSON.stringify(frame);
        if (socket?.readyState === WebSocket.OPEN) socket.send(text);
        else outbox.push(text);
      });
    },
    on(name, listener) {
      const set = listeners.get(name) ?? new Set();
      listeners.set(name, set);
      set.add(listener as (p: unknown) => void);
      return () => set.delete(listener as (p: unknown) => void);
    },
  };
}
