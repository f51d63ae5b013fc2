let worker: Worker | null = null;
let nextId = 1;
const waiting = new Map<number, { ok(p: string[]): void; ko(e: Error): void }>();

/** Renders ZPL to PNGs (base64) in a lazily started worker; rejects if the renderer cannot load. */
export function renderZpl(zpl: string, dpi = 203): Promise<string[]> {
  if (!worker) {
    worker = new Worker(new URL('../components/zpl.worker.ts', import.meta.url), {
      type: 'module',
    });
    worker.onmessage = (e: MessageEvent<{ id: number; pngs?: string[]; error?: string }>) => {
      const w = waiting.get(e.data.id);
      waiting.delete(e.data.id);
      if (e.data.pngs) w?.ok(e.data.pngs);
      else w?.ko(new Error(e.data.error ?? 'render failed'));
    };
    worker.onerror = (e) => {
      for (const w of waiting.values())
        w.ko(new Error(e.message || 'the label renderer failed to load'));
      waiting.clear();
      worker = null;
    };
  }
  const id = nextId++;
  return new Promise((ok, ko) => {
    waiting.set(id, { ok, ko });
    worker!.postMessage({ id, zpl, dpmm: dpi === 300 ? 12 : dpi === 600 ? 24 : 8 });
    setTimeout(() => {
      if (waiting.delete(id)) ko(new Error('the label renderer took too long'));
    }, 20_000);
  });
}

let warming: Promise<void> | null = null;

/**
 * Starts the label renderer (a 9 MB WebAssembly module, ~1.5 s to load) while the station opens,
 * so the first label's preview does not sit blank after the first purchase. Marks the page
 * `data-label-renderer="ready"` (or "fallback" when it cannot load and previews show fields).
 */
export function warmZplRenderer(): Promise<void> {
  warming ??= renderZpl('^XA^PW100^LL100^FO10,10^A0N,20,20^FDok^FS^XZ').then(
    () => {
      document.documentElement.dataset['labelRenderer'] = 'ready';
    },
    () => {
      document.documentElement.dataset['labelRenderer'] = 'fallback';
    },
  );
  return warming;
}

export interface ZplElement {
  kind: 'text' | 'barcode' | 'box';
  x: number;
  y: number;
  w: number;
  h: number;
  text: string;
}

/**
 * A plain reading of the ZPL's fields (^FO origin, ^A font height, ^FD text, ^BC barcode, ^GB
 * box), used when the WebAssembly renderer cannot run. It shows what the label says, where it
 * says it; it is not a pixel-exact rendering.
 */
export function parseZpl(zpl: string): { width: number; height: number; labels: ZplElement[][] } {
  const width = Number(/\^PW(\d+)/.exec(zpl)?.[1] ?? 812);
  const height = Number(/\^LL(\d+)/.exec(zpl)?.[1] ?? 1218);
  const labels: ZplElement[][] = [];
  for (const block of zpl.split(/\^XA/).slice(1)) {
    const out: ZplElement[] = [];
    let x = 0;
    let y = 0;
    let font = 30;
    let barcode: number | null = null;
    let box: { w: number; h: number } | null = null;
    for (const cmd of block.split('^').slice(1)) {
      const code = cmd.slice(0, 2).toUpperCase();
      const args = cmd.slice(2);
      if (code === 'FO' || code === 'FT') {
        const [a, b] = args.split(',');
        x = Number(a) || 0;
        y = Number(b) || 0;
        barcode = null;
        box = null;
      } else if (code.startsWith('A') && /^A[0-9A-Z]/.test(code)) {
        const h = Number(args.split(',')[1] ?? cmd.slice(3).split(',')[1]);
        if (h > 0) font = h;
      } else if (code === 'CF') {
        const h = Number(args.split(',')[1]);
        if (h > 0) font = h;
      } else if (code === 'BC' || code === 'B3' || code === 'BQ') {
        barcode = Number(args.split(',')[1]) || 100;
      } else if (code === 'BY') {
        // module width: ignored
      } else if (code === 'GB') {
        const [w, h] = args.split(',');
        box = { w: Number(w) || 1, h: Number(h) || 1 };
        out.push({ kind: 'box', x, y, w: box.w, h: box.h, text: '' });
      } else if (code === 'FD') {
        const text = args.replace(/\^FS.*$/, '');
        if (barcode !== null)
          out.push({ kind: 'barcode', x, y, w: Math.max(200, text.length * 22), h: barcode, text });
        else out.push({ kind: 'text', x, y, w: 0, h: font, text });
      }
    }
    labels.push(out);
  }
  return { width, height, labels };
}
