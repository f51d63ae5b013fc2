import { useEffect, useRef, useState } from 'react';
import { resumeBuying } from '../store/pack-resume';
import { call } from '../bridge';
import { useStation } from '../store';
import { LABELLED_NO_WEIGHT, Packages, type PackagesHandle } from './pack/Packages';
import { BoxDiffers } from './pack/BoxDiffers';
import { RatesPanel } from './pack/Rates';
import { PackResult } from './pack/Result';
import { OrderItems, ShipOptionsPanel, type ShipOptionsHandle } from './pack/ShipOptions';
import { OverrideForm, VerifyTable } from './pack/Verify';
import { isVerifying } from '../store/pack-rules';
import './pack/pack-layout.css';

/** Scan takes the keyboard, unless another field has it (`force`: even then). */
function focusScanField(scan: HTMLInputElement | null, force = false): void {
  const active = document.activeElement;
  const typing =
    active instanceof HTMLElement &&
    active !== scan &&
    (active.tagName === 'INPUT' || active.tagName === 'TEXTAREA' || active.tagName === 'SELECT');
  if (force || !typing) scan?.focus();
}

/**
 * The packer's screen. Hands stay on the scanner: the Scan field takes the focus back after
 * every action, every control has a key, and every panel keeps its size so nothing jumps
 * while scanning.
 */
export function PackView() {
  const s = useStation();
  const scanRef = useRef<HTMLInputElement>(null);
  const packagesRef = useRef<PackagesHandle>(null);
  const optionsRef = useRef<ShipOptionsHandle>(null);
  const [scan, setScan] = useState('');
  const [reprinting, setReprinting] = useState(false);
  const [overriding, setOverriding] = useState(false);
  // Back to Scan after an action, unless the packer has since moved to another field on purpose
  // (the weight, a reprint reason): a late callback must never steal their typing.
  const focusScan = (force = false) =>
    requestAnimationFrame(() => focusScanField(scanRef.current, force));

  useEffect(() => {
    // At once, not a frame later: a scan typed the moment Pack opens lands whole in Scan.
    focusScanField(scanRef.current);
    void useStation.getState().loadSettings();
    // A label this station is buying since before this page opened (a reload mid-purchase).
    void resumeBuying();
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const st = useStation.getState();
      if (e.ctrlKey && e.shiftKey && (e.key === 'A' || e.key === 'a')) {
        e.preventDefault();
        st.allowAnother();
        focusScan();
      } else if (e.ctrlKey && e.key === 'Enter') {
        e.preventDefault();
        // Bought from a weight field: the hands go back to the scanner.
        if (document.activeElement?.closest('[data-testid="packages"]')) scanRef.current?.focus();
        void st.buy().then(() => focusScan());
      } else if (e.altKey && (e.key === 'w' || e.code === 'KeyW')) {
        e.preventDefault();
        packagesRef.current?.focusWeight();
      } else if (e.altKey && (e.key === 'o' || e.code === 'KeyO')) {
        e.preventDefault();
        optionsRef.current?.focus();
      } else if (e.altKey && (e.key === 's' || e.code === 'KeyS')) {
        e.preventDefault();
        void readScale();
      } else if (e.altKey && (e.key === 'r' || e.code === 'KeyR')) {
        e.preventDefault();
        if (
          st.scannedLabel ||
          st.existingLabels.length ||
          (st.result?.kind === 'success' && st.result.purchase.label) ||
          (st.labelledElsewhere?.label && !st.labelledElsewhere.label.voided)
        )
          setReprinting(true);
      } else if (e.altKey && (e.key === 'v' || e.code === 'KeyV')) {
        e.preventDefault();
        if (st.verification?.lines.length && !st.verification.verified) setOverriding(true);
      } else if (e.key === 'Escape') {
        if (st.busy === 'buy') {
          // The label request is on its way and may already be paid: clearing the screen would
          // hide a label that comes out of the printer a moment later.
          e.preventDefault();
          st.notify(
            'error',
            'The label is being bought: Esc cannot stop it. Its result shows here in a moment.',
          );
          return;
        }
        setReprinting(false);
        setOverriding(false);
        st.clearPack();
        setScan('');
        focusScan(true);
      } else if (
        (document.activeElement === document.body || document.activeElement?.tagName === 'MAIN') &&
        e.key.length === 1 &&
        !e.ctrlKey &&
        !e.altKey &&
        !e.metaKey
      ) {
        // A scan that starts while no field has the focus (the page, or the view itself) still
        // lands in the Scan field.
        scanRef.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // The scale weighs the package in hand: the one whose weight field was focused last.
  async function readScale() {
    const before = useStation.getState();
    // Labelled and no other label asked for: a weight now would rate nothing (the fields are
    // read-only too); said instead of filling a field that does nothing.
    if (
      (before.existingLabels.length || before.labelledElsewhere?.label) &&
      !before.confirmAnother
    ) {
      before.notify('error', LABELLED_NO_WEIGHT);
      return;
    }
    const r = await call('pack.readScale', {});
    const st = useStation.getState();
    if (!st.packages.length) return;
    if (r.ok && r.value.weightLbs !== null) {
      st.setWeight(st.activePackage, String(r.value.weightLbs));
      if (st.packages.every((p, i) => i === st.activePackage || p.weight.trim() !== ''))
        void st.rate();
    } else st.notify('error', r.ok ? r.value.message : r.error.message);
  }

  const onScanKey = (e: React.KeyboardEvent<HTMLInputElement>) => {
    // A scanner set to end each scan with Tab (a common factory setting) submits as with
    // Enter; Tab in an empty field moves on as usual.
    const scannerTab = e.key === 'Tab' && !e.shiftKey && scan.trim() !== '';
    if ((e.key === 'Enter' && !e.ctrlKey) || scannerTab) {
      e.preventDefault();
      const value = scan;
      setScan('');
      setReprinting(false);
      setOverriding(false);
      void s.scan(value).then(() => focusScan());
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      s.moveSelection(e.key === 'ArrowDown' ? 1 : -1);
    }
  };

  const order = s.order;

  return (
    <div className="pack">
      <section className="pack-left">
        <label className="scan">
          <span>
            {order && isVerifying(s)
              ? 'Scan each item (5* before a scan counts 5), another order, or a box'
              : 'Scan order, tracking number or box'}
          </span>
          <input
            ref={scanRef}
            aria-label="Scan"
            value={scan}
            onChange={(e) => setScan(e.target.value)}
            onKeyDown={onScanKey}
            onBlur={(e) => {
              // Keep the focus unless the packer deliberately moved to another control.
              if (!e.relatedTarget) focusScan(true);
            }}
            autoComplete="off"
            spellCheck={false}
            placeholder={s.busy === 'scan' ? 'Looking up…' : 'Scan or type, then Enter'}
          />
        </label>

        <div className="panel order" data-testid="order-panel">
          {order ? (
            <>
              <h2>
                Order <span data-testid="order-number">{order.orderNumber}</span>
                {order.brandName ? <span className="chip">{order.brandName}</span> : null}
                {order.international ? (
                  <span className="chip warn" data-testid="international">
                    To {order.shipTo.countryCode}: customs
                  </span>
                ) : null}
                {order.items.some((i) => i.hazmat) ? (
                  <span className="chip warn">HAZMAT</span>
                ) : null}
              </h2>
              <div className="cols">
                <address>
                  <b className="clamp2" title={order.shipTo.name}>
                    {order.shipTo.name}
                  </b>
                  {order.shipTo.company ? (
                    <div className="clamp2" title={order.shipTo.company}>
                      {order.shipTo.company}
                    </div>
                  ) : null}
                  <div>{order.shipTo.addressLine1}</div>
                  {order.shipTo.addressLine2 ? <div>{order.shipTo.addressLine2}</div> : null}
                  <div>
                    {order.shipTo.city} {order.shipTo.stateProvince} {order.shipTo.postalCode}{' '}
                    {order.shipTo.countryCode}
                  </div>
                </address>
                {isVerifying(s) ? null : <OrderItems order={order} />}
              </div>
              {isVerifying(s) && s.verification ? (
                <VerifyTable verification={s.verification} />
              ) : null}
              {overriding ? (
                <OverrideForm
                  onDone={() => {
                    setOverriding(false);
                    focusScan(true);
                  }}
                />
              ) : null}
              <div className="muted">
                {order.packages.length} package{order.packages.length === 1 ? '' : 's'}
              </div>
              {s.packages.map((p, i) => (
                <BoxDiffers
                  key={i}
                  n={i + 1}
                  count={s.packages.length}
                  preset={p.box}
                  file={order.packages[i]}
                />
              ))}
            </>
          ) : (
            <p className="placeholder">
              Scan an order to start.
              {s.status?.profile?.environment === 'embedded-sandbox' ? (
                <>
                  {' '}
                  This is the demo station: try <b>LUM-10421</b>, Enter, then Ctrl+Enter. Labels
                  print on the virtual printer; nothing is really shipped.
                </>
              ) : null}
            </p>
          )}
        </div>

        <ShipOptionsPanel key={s.order?.id ?? ''} ref={optionsRef} onDone={() => focusScan(true)} />

        <Packages
          ref={packagesRef}
          onReadScale={() => void readScale()}
          onDone={() => focusScan(true)}
          toScan={() => scanRef.current?.focus()}
        />
      </section>

      <section className="pack-right">
        <RatesPanel onBuy={() => void s.buy().then(() => focusScan())} />

        <PackResult
          reprinting={reprinting}
          setReprinting={setReprinting}
          onReprintDone={() => {
            setReprinting(false);
            focusScan(true);
          }}
        />
        <p className="shortcuts muted">
          <kbd>Enter</kbd> scan · <kbd>Alt+W</kbd> weight · <kbd>Alt+O</kbd> options · <kbd>↑</kbd>
          <kbd>↓</kbd> rate · <kbd>Ctrl+Enter</kbd> buy & print · <kbd>Alt+R</kbd> reprint ·{' '}
          <kbd>Alt+V</kbd> override · <kbd>Alt+Z</kbd> zoom · <kbd>Esc</kbd> clear
        </p>
      </section>
    </div>
  );
}
