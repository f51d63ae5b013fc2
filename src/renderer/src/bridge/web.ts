import type { StationBridge, ClientFrame, ServerFrame } from '../../../shared/bridge';
import type { Result } from '../../../shared/result';

type Pending = (result: Result<unknown>) => void;

/** How long a call waits for a host that is away before it is answered `host-lost`. */
const WAIT_FOR_HOST_MS = 3000;

/**
 * The station bridge over the web host's WebSocket. The host traded the printed address's
 * one-time token for an HttpOnly session cookie before this page loaded, so the page never
 * holds a credential; the browser sends the cookie with the socket and the orders upload.
 * A call made while the socket is down waits a few seconds for it to come back (a host
 * restarting), then is answered `host-lost` without having been sent: a packer is not left on
 * "Looking up…" while nothing can answer.
 */
export function connectWeb(onConnection: (connected: boolean) => void): StationBridge {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const pending = new Map<number, Pending>();
  /** Frames waiting for the socket, by call id (not sent: nothing ran). */
  const outbox = new Map<number, string>();
  /** Calls sent and not answered: a drop leaves their outcome open. */
  const sent = new Set<number>();
  const send = (ws: WebSocket, id: number, text: string) => {
    sent.add(id);
    ws.send(text);
  };
  let nextId = 1;
  let socket: WebSocket | null = null;
  let retry = 250;

  const open = () => {
    const ws = new WebSocket(`ws://${location.host}/ws`);
    socket = ws;
    ws.onopen = () => {
      retry = 250;
      onConnection(true);
      for (const [id, frame] of outbox) send(ws, id, frame);
      outbox.clear();
    };
    ws.onmessage = (message) => {
      const frame = JSON.parse(String(message.data)) as ServerFrame;
      if ('id' in frame) {
        pending.get(frame.id)?.(frame.result);
        pending.delete(frame.id);
        sent.delete(frame.id);
      } else {
        for (const l of listeners.get(frame.event) ?? []) l(frame.payload);
      }
    };
    ws.onclose = () => {
      socket = null;
      onConnection(false);
      // Calls in flight may or may not have run; say so instead of guessing. (Those still in
      // the outbox never left: they wait for the host, up to WAIT_FOR_HOST_MS.)
      for (const id of sent) {
        const resolve = pending.get(id);
        sent.delete(id);
        if (!resolve) continue;
        resolve({
          ok: false,
          error: {
            code: 'host-lost',
            message:
              'Lost the connection to the station host (the station program stopped or restarted) while this was under way: check the result before repeating.',
            // Sent and not answered: it may have run (a purchase may have been made).
            details: { mayHaveRun: true },
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
          code: 'host-lost',
          message:
            'Lost the connection to the station host while sending the orders file: check the Orders view before sending it again.',
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
        if (socket?.readyState === WebSocket.OPEN) return send(socket, id, text);
        outbox.set(id, text);
        setTimeout(() => {
          if (!outbox.delete(id)) return; // sent once the host came back
          pending.delete(id);
          resolve({
            ok: false,
            error: {
              code: 'host-lost',
              message:
                'The station host is not answering (the station program stopped or is restarting). Nothing was done; try again once the header shows the platform again.',
            },
          } as Result<never>);
        }, WAIT_FOR_HOST_MS);
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
