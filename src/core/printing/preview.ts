/**
 * Label preview: ZPL → PNG with zpl-renderer-js (Zebrash compiled from Go to WebAssembly, with
 * the WASM inlined: about 9 MB of JavaScript). It runs in Node as well as in a browser, so the
 * station renders previews itself, with no third-party service such as Labelary.
 *
 * Cost: loading takes a few hundred ms and a 4x6 render about a second of CPU on one core, on
 * the thread that calls it. So the module is imported on first use only, and hosts should call
 * this from a worker (node:worker_threads in the main process, or a Web Worker in the renderer:
 * `import('zpl-renderer-js')` there, same call) and cache the PNG per label.
 */

export interface PreviewOptions {
  /** Print head resolution the label was made for; 203 (8 dots/mm) unless said otherwise. */
  dpi?: 203 | 300 | 600;
  widthIn?: number;
  heightIn?: number;
}

export interface LabelPreview {
  png: Buffer;
  widthPx: number;
  heightPx: number;
}

type ZplApi = {
  zplToBase64Async(
    zpl: string,
    widthMm?: number,
    heightMm?: number,
    dpmm?: number,
  ): Promise<string>;
};

let api: Promise<ZplApi> | null = null;

function loadRenderer(): Promise<ZplApi> {
  api ??= import('zpl-renderer-js').then(async (m) => (await m.ready).api);
  return api;
}

const DPMM: Record<203 | 300 | 600, number> = { 203: 8, 300: 12, 600: 24 };

/** Renders the first label in `zpl` to a PNG. Throws when the ZPL cannot be rendered. */
export async function renderLabelPreview(
  zpl: string,
  options: PreviewOptions = {},
): Promise<LabelPreview> {
  const renderer = await loadRenderer();
  const widthMm = (options.widthIn ?? 4) * 25.4;
  const heightMm = (options.heightIn ?? 6) * 25.4;
  const base64 = await renderer.zplToBase64Async(zpl, widthMm, heightMm, DPMM[options.dpi ?? 203]);
  const png = Buffer.from(base64, 'base64');
  if (png.length < 24 || png.readUInt32BE(0) !== 0x89504e47)
    throw new Error('The label preview could not be drawn (the renderer returned no image)');
  // IHDR: width and height are the first fields of the first chunk.
  return { png, widthPx: png.readUInt32BE(16), heightPx: png.readUInt32BE(20) };
}
