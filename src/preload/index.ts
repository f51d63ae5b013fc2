/**
 * The sandboxed preload exposes the station contract and nothing else: one `call` and one `on`,
 * over the contract's two channels. It holds no list of names (nothing to keep in step with the
 * contract): the main process checks the sender and `dispatch` refuses any name the contract
 * does not declare (`not-found`); an event name that is not the contract's simply never fires.
 * There is no general-purpose ipcRenderer in the renderer.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { CALL_CHANNEL, EVENT_CHANNEL } from '../shared/bridge';

contextBridge.exposeInMainWorld('station', {
  host: 'electron',
  call(name: string, input: unknown) {
    return ipcRenderer.invoke(CALL_CHANNEL, name, input);
  },
  on(name: string, listener: (payload: unknown) => void) {
    if (typeof name !== 'string') throw new Error('A station event name is a string.');
    const handler = (_e: IpcRendererEvent, event: string, payload: unknown) => {
      if (event === name) listener(payload);
    };
    ipcRenderer.on(EVENT_CHANNEL, handler);
    return () => {
      ipcRenderer.off(EVENT_CHANNEL, handler);
    };
  },
});
