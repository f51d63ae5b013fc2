import { useEffect, useState } from 'react';
import { call } from '../bridge';
import { parseZpl, renderZpl } from '../lib/zpl-render';
import './label-preview.css';

type State =
  | { kind: 'loading' }
  /** The ZPL is here and the exact image is being drawn: its fields show meanwhile. */
  | { kind: 'sketch'; zpl: string }
  | { kind: 'png'; pngs: string[] }
  | { kind: 'fields'; zpl: string; why: string }
  | { kind: 'none'; why: string };

/** Rendered labels, kept so a preview shown again (zoomed, a row selected again) is instant. */
const rendered = new Map<string, State>();
const RENDERED_KEPT = 30;

/**
 * The label as it will come out of the printer, one image per package; falls back to its fields
 * if rendering fails. A click (or Alt+Z where `zoomKey` is set) opens it large; Esc closes it.
 */
export function LabelPreview(props: { labelId: string; compact?: boolean; zoomKey?: boolean }) {
  const [loaded, setLoaded] = useState<{ id: string; state: State } | null>(null);
  // Zoomed on this label; another label (the next purchase, another row) starts unzoomed.
  const [zoomedId, setZoomedId] = useState<string | null>(null);
  const zoomed = zoomedId === props.labelId;
  const setZoomed = (on: boolean) => setZoomedId(on ? props.labelId : null);
  const state: State =
    loaded?.id === props.labelId
      ? loaded.state
      : (rendered.get(props.labelId) ?? { kind: 'loading' });
  useEffect(() => {
    let live = true;
    const setState = (s: State) => {
      if (s.kind !== 'none' && s.kind !== 'sketch') {
        rendered.set(props.labelId, s);
        if (rendered.size > RENDERED_KEPT) rendered.delete(rendered.keys().next().value!);
      }
      setLoaded({ id: props.labelId, state: s });
    };
    if (rendered.has(props.labelId)) return;
    void (async () => {
      const r = await call('labels.get', { id: props.labelId });
      if (!live) return;
      if (!r.ok || !r.value.zpl) {
        setState({
          kind: 'none',
          why: r.ok
            ? 'The ZPL of this label was dropped by the retention setting.'
            : r.error.message,
        });
        return;
      }
      const zpl = r.value.zpl;
      // Never a blank box: what the label says, where it says it, until the image is drawn.
      setState({ kind: 'sketch', zpl });
      try {
        const pngs = await renderZpl(zpl);
        if (live) setState({ kind: 'png', pngs });
      } catch (error) {
        if (live) setState({ kind: 'fields', zpl, why: (error as Error).message });
      }
    })();
    return () => {
      live = false;
    };
  }, [props.labelId]);

  useEffect(() => {
    // Capture: Esc closes the zoom and goes no further (on Pack it would also clear the order).
    const onKey = (e: KeyboardEvent) => {
      if (props.zoomKey && e.altKey && (e.key === 'z' || e.code === 'KeyZ')) {
        e.preventDefault();
        setZoomedId(zoomed ? null : props.labelId);
      } else if (e.key === 'Escape' && zoomed) {
        e.stopPropagation();
        setZoomedId(null);
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [props.zoomKey, props.labelId, zoomed]);

  const cls = props.compact ? 'label-preview compact' : 'label-preview';
  return (
    <>
      <Labels
        state={state}
        className={cls}
        testId="label-preview"
        onClick={() => setZoomed(true)}
        title={props.zoomKey ? 'Click or Alt+Z to zoom' : 'Click to zoom'}
      />
      {zoomed ? (
        <div
          className="label-zoom"
          role="dialog"
          aria-label="Label preview, large"
          onClick={() => setZoomed(false)}
        >
          <Labels state={state} className="label-preview zoomed" testId="label-zoom" />
          <p className="muted">Esc or click to close</p>
        </div>
      ) : null}
    </>
  );
}

function Labels(props: {
  state: State;
  className: string;
  testId: string;
  onClick?(): void;
  title?: string;
}) {
  const { state } = props;
  const common = {
    className: props.className,
    'data-testid': props.testId,
    ...(props.onClick ? { onClick: props.onClick, role: 'button', tabIndex: -1 } : {}),
    ...(props.title ? { title: props.title } : {}),
  };
  switch (state.kind) {
    case 'loading':
      return (
        <div {...common} aria-busy="true">
          <p className="muted">Drawing the label…</p>
        </div>
      );
    case 'none':
      return (
        <div {...common}>
          <p className="muted">{state.why}</p>
        </div>
      );
    case 'sketch':
      return (
        <div {...common} aria-busy="true">
          <FieldsPreview zpl={state.zpl} />
        </div>
      );
    case 'png':
      return (
        <div {...common}>
          {state.pngs.map((png, i) => (
            <img
              key={i}
              src={`data:image/png;base64,${png}`}
              alt={`Label ${i + 1} of ${state.pngs.length}`}
            />
          ))}
        </div>
      );
    case 'fields':
      return (
        <div {...common} title={`Simplified preview: ${state.why}`}>
          <FieldsPreview zpl={state.zpl} />
        </div>
      );
    default: {
      const never: never = state;
      return never;
    }
  }
}

function FieldsPreview({ zpl }: { zpl: string }) {
  const { width, height, labels } = parseZpl(zpl);
  return (
    <>
      {labels.map((els, i) => (
        <svg
          key={i}
          viewBox={`0 0 ${width} ${height}`}
          role="img"
          aria-label={`Label ${i + 1} (simplified)`}
        >
          <rect width={width} height={height} fill="#fff" stroke="#000" />
          {els.map((el, j) =>
            el.kind === 'box' ? (
              <rect
                key={j}
                x={el.x}
                y={el.y}
                width={el.w}
                height={el.h}
                fill="none"
                stroke="#000"
                strokeWidth={3}
              />
            ) : el.kind === 'barcode' ? (
              <g key={j}>
                {Array.from({ length: Math.floor(el.w / 8) }, (_, k) => (
                  <rect
                    key={k}
                    x={el.x + k * 8}
                    y={el.y}
                    width={(k * 7) % 3 === 0 ? 5 : 3}
                    height={el.h}
                    fill="#000"
                  />
                ))}
                <text x={el.x} y={el.y + el.h + 28} fontSize={26} fontFamily="monospace">
                  {el.text}
                </text>
              </g>
            ) : (
              <text key={j} x={el.x} y={el.y + el.h} fontSize={el.h} fontFamily="Arial, sans-serif">
                {el.text}
              </text>
            ),
          )}
        </svg>
      ))}
    </>
  );
}
