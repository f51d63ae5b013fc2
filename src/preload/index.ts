/**
 * The sandboxed preload exposes the station contract and nothing else: one `call` that only
 * accepts the contract's call names and one `on` that only accepts its event names, both over
 * the contract's two channels. There is no general-purpose ipcRenderer in the renderer.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { CALL_CHANNEL, EVENT_CHANNEL, callNames, eventNames } from '../shared/names';

const calls = new Set<string>(callNames);
const events = new Set<string>(eventNames);

contextBridge.exposeInMainWorld('station', {
  host: 'electron',
  call(name: string, input: unknown) {
    if (!calls.has(name)) {
      return Promise.resolve({
        ok: false,
        error: { code: 'not-found', message: `Unknown station call ${name}` },
      });
    }
    return ipcRenderer.invoke(CALL_CHANNEL, name, input);
  },
  on(name: string, listener: (payload: unknown) => void) {
    if (!events.has(name)) throw new Error(`Unknown station event ${name}`);
    const handler = (_e: IpcRendererEvent, event: string, payload: unknown) => {
      if (event === name) listener(payload);
    };
    ipcRenderer.on(EVENT_CHANNEL, handler);
    return () => {
      ipcRenderer.off(EVENT_CHANNEL, handler);
    };
  },
});
