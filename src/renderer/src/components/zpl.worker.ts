/// <reference lib="webworker" />
// zpl-renderer-js is ~9 MB (a Go WebAssembly module inlined): loaded only here, in a worker,
// and only when the first preview is asked for, so the Pack screen never waits for it.
import { ready } from 'zpl-renderer-js';

declare const self: DedicatedWorkerGlobalScope;

self.onmessage = async (e: MessageEvent<{ id: number; zpl: string; dpmm: number }>) => {
  const { id, zpl, dpmm } = e.data;
  try {
    const { api } = await ready;
    const pngs = await api.zplToBase64MultipleAsync(zpl, 101.6, 152.4, dpmm);
    self.postMessage({ id, pngs });
  } catch (error) {
    self.postMessage({ id, error: String((error as Error)?.message ?? error) });
  }
};
