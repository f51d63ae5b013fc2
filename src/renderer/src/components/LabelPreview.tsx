import { useEffect, useState } from 'react';
import { call } from '../bridge';
import { parseZpl, renderZpl } from '../lib/zpl-render';

type State =
  | { kind: 'loading' }
  | { kind: 'png'; pngs: string[] }
  | { kind: 'fields'; zpl: string; why: string }
  | { kind: 'none'; why: string };

/** The label as it will come out of the printer; falls back to its fields if rendering fails. */
export function LabelPreview(props: { labelId: string; compact?: boolean }) {
  const [loaded, setLoaded] = useState<{ id: string; state: State } | null>(null);
  const state: State = loaded?.id === props.labelId ? loaded.state : { kind: 'loading' };
  useEffect(() => {
    let live = true;
    const setState = (s: State) => setLoaded({ id: props.labelId, state: s });
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

  const cls = props.compact ? 'label-preview compact' : 'label-preview';
  switch (state.kind) {
    case 'loading':
      return <div className={cls} data-testid="label-preview" aria-busy="true" />;
    case 'none':
      return (
        <div className={cls} data-testid="label-preview">
          <p className="muted">{state.why}</p>
        </div>
      );
    case 'png':
      return (
        <div className={cls} data-testid="label-preview">
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
        <div className={cls} data-testid="label-preview" title={`Simplified preview: ${state.why}`}>
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
