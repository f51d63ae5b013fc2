import { forwardRef, useImperativeHandle, useRef } from 'react';
import { useStation } from '../../store';

/** Why a labelled order's weights take no typing (Pack's Alt+S says it too). */
export const LABELLED_NO_WEIGHT =
  'This order has its label: press Ctrl+Shift+A to buy another, then weigh it.';

export interface PackagesHandle {
  /** Focus the weight field of the package in hand (or the first without a weight). */
  focusWeight(): void;
}

/**
 * One row per package: its own weight (typed, or from the scale into the focused row) and box.
 * The list keeps a fixed height and scrolls, so an order of five parcels moves nothing else.
 */
export const Packages = forwardRef<
  PackagesHandle,
  {
    onReadScale(): void;
    onDone(): void;
    /** A key typed into a labelled order's weight: focus goes to Scan, where the key lands. */
    toScan(): void;
  }
>(function Packages({ onReadScale, onDone, toScan }, ref) {
  const s = useStation();
  // A labelled order is not weighed again (unless another label is wanted): no amber box.
  const needsWeights = !s.existingLabels.length || s.confirmAnother;
  // Labelled (here or elsewhere) and no other label asked for: a weight typed now would rate
  // nothing, so the fields take none until Ctrl+Shift+A asks for another label.
  const locked =
    (s.existingLabels.length > 0 || Boolean(s.labelledElsewhere?.label)) && !s.confirmAnother;
  const lockedWhy = locked ? LABELLED_NO_WEIGHT : undefined;
  const inputs = useRef<(HTMLInputElement | null)[]>([]);
  const boxes = s.settings?.boxes ?? [];
  const count = s.packages.length;

  const focus = (i: number) => {
    const el = inputs.current[i];
    el?.focus();
    el?.select();
  };
  useImperativeHandle(ref, () => ({
    focusWeight() {
      const { packages, activePackage, existingLabels, labelledElsewhere, confirmAnother } =
        useStation.getState();
      // Labelled: nothing to weigh (Alt+W leaves the packer in Scan, and says why).
      if ((existingLabels.length || labelledElsewhere?.label) && !confirmAnother) {
        useStation.getState().notify('error', LABELLED_NO_WEIGHT);
        return;
      }
      const empty = packages.findIndex((p) => p.weight.trim() === '');
      focus(empty >= 0 ? empty : Math.min(activePackage, Math.max(0, packages.length - 1)));
    },
  }));

  // Enter: on to the next package (its weight selected, ready to be replaced); on the last
  // one, back to a package left without a weight, or rate when every package has one.
  const onEnter = (i: number) => {
    if (i + 1 < count) {
      s.setActivePackage(i + 1);
      focus(i + 1);
      return;
    }
    const empty = useStation.getState().packages.findIndex((p) => p.weight.trim() === '');
    if (empty >= 0 && empty !== i) {
      focus(empty);
      return;
    }
    void s.rate();
    onDone();
  };

  return (
    <div className="panel weigh" data-testid="packages">
      <div className="weigh-head">
        <span>
          {count > 1 ? `${count} packages: weigh each` : 'Weight'} <kbd>Alt+W</kbd>
        </span>
        <button onClick={onReadScale} disabled={!count || locked} title={lockedWhy}>
          Read scale into package {count ? s.activePackage + 1 : ''} <kbd>Alt+S</kbd>
        </button>
      </div>
      <div className="package-rows">
        {count === 0 ? (
          <p className="placeholder">Each package of the order gets its weight and box here.</p>
        ) : (
          s.packages.map((p, i) => (
            <div
              key={i}
              className={i === s.activePackage ? 'package-row active' : 'package-row'}
              data-testid="package-row"
            >
              <label>
                <span className="pkg-name">{count > 1 ? `${i + 1} of ${count}` : 'Package'}</span>
                <input
                  ref={(el) => {
                    inputs.current[i] = el;
                  }}
                  aria-label={`Package ${i + 1} weight in pounds`}
                  inputMode="decimal"
                  placeholder="lb"
                  value={p.weight}
                  readOnly={locked}
                  title={lockedWhy}
                  className={p.weight.trim() === '' && needsWeights ? 'missing' : ''}
                  onFocus={() => s.setActivePackage(i)}
                  onChange={(e) => s.setWeight(i, e.target.value, true)}
                  onKeyDown={(e) => {
                    // A key typed into a labelled order's field (a scanner's next order, say):
                    // focus moves to Scan before the key lands, so nothing typed is lost.
                    if (locked && e.key.length === 1 && !e.ctrlKey && !e.altKey && !e.metaKey) {
                      toScan();
                      return;
                    }
                    // Ctrl+Enter is the buy key (the Pack view's), not \"next package\".
                    if (e.key === 'Enter' && !e.ctrlKey) {
                      e.preventDefault();
                      onEnter(i);
                    }
                  }}
                />
                <span className="muted">lb</span>
              </label>
              <div className="boxes" role="group" aria-label={`Package ${i + 1} box`}>
                {boxes.map((b) => (
                  <button
                    key={b.id}
                    className={p.box?.id === b.id ? 'box selected' : 'box'}
                    aria-pressed={p.box?.id === b.id}
                    disabled={locked}
                    title={
                      lockedWhy ??
                      `${b.name}: ${b.lengthIn}×${b.widthIn}×${b.heightIn} in, scan ${b.code}`
                    }
                    onClick={() => {
                      s.setActivePackage(i);
                      s.setBox(i, p.box?.id === b.id ? null : b);
                      void s.rate();
                      onDone();
                    }}
                  >
                    {b.name}
                  </button>
                ))}
              </div>
            </div>
          ))
        )}
      </div>
    </div>
  );
});
