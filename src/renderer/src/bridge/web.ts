import type { StationBridge, ClientFrame, ServerFrame } from '../../../shared/bridge';
import type { Result } from '../../../shared/result';

type Pending = (result: Result<unknown>) => void;

/**
 * The station bridge over the web host's WebSocket. The host traded the printed address's
 * one-time token for an HttpOnly session cookie before this page loaded, so the page never
 * holds a credential; the browser sends the cookie with the socket and the orders upload.
 * Calls made while the socket is down wait for it to come back.
 */
export function connectWeb(onConnection: (connected: boolean) => void): StationBridge {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const pending = new Map<number, Pending>();
  const outbox: string[] = [];
  let nextId = 1;
  let socket: WebSocket | null = null;
  let retry = 250;

  const open = () => {
    const ws = new WebSocket(`ws://${location.host}/ws`);
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
      // The host restarted (its sessions are per run): reloading shows how to open it again.
      void fetch('/session', { cache: 'no-store' }).then(
        (r) => {
          if (r.status === 401) location.reload();
        },
        () => {},
      );
      setTimeout(open, retry);
      retry = Math.min(retry * 2, 5000);
    };
  };
  open();

  async function upload(file: { fileName: string; content: string }): Promise<Result<never>> {
    try {
      const res = await fetch(`/upload/orders?name=${encodeURIComponent(file.fileName)}`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain; charset=utf-8' },
        body: file.content,
      });
      return (await res.json()) as Result<never>;
    } catch {
      return {
        ok: false,
        error: {
          code: 'platform-unreachable',
          message: 'Lost the connection to the station host while sending the orders file.',
        },
      };
    }
  }

  return {
    host: 'web',
    call(name, input) {
      // An orders file can be megabytes: it is streamed over HTTP, never sent as a frame.
      if (name === 'orders.import') return upload(input as { fileName: string; content: string });
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
