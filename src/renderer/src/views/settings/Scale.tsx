import { useEffect, useState } from 'react';
import { call } from '../../bridge';
import { useStation } from '../../store';
import type { ScaleDiscovery, StationSettings } from '../../../../shared/views';

/**
 * The USB scale: on or off, which one (from the scales this computer sees), and a test read.
 * Typing the weight on Pack works whatever is set here.
 */
export function ScalePanel({ settings }: { settings: StationSettings }) {
  const update = useStation((s) => s.updateSettings);
  const [found, setFound] = useState<ScaleDiscovery | null>(null);
  const [searching, setSearching] = useState(false);
  const [reading, setReading] = useState<{ ok: boolean; text: string } | null>(null);
  const [reads, setReads] = useState(false);
  const scale = settings.scale;

  async function discover() {
    setSearching(true);
    const r = await call('devices.discoverScales', {});
    setSearching(false);
    setFound(r.ok ? r.value : { scales: [], note: r.error.message });
  }
  useEffect(() => {
    let live = true;
    void call('devices.discoverScales', {}).then((r) => {
      if (live) setFound(r.ok ? r.value : { scales: [], note: r.error.message });
    });
    return () => {
      live = false;
    };
  }, []);

  async function readNow() {
    setReads(true);
    setReading(null);
    const r = await call('pack.readScale', {});
    setReads(false);
    if (!r.ok) return setReading({ ok: false, text: r.error.message });
    setReading(
      r.value.weightLbs !== null
        ? { ok: true, text: `${r.value.weightLbs} lb (the scale shows ${r.value.message})` }
        : { ok: false, text: `No weight: ${r.value.message}` },
    );
  }

  const listed = found?.scales ?? [];
  const savedMissing = scale.device && !listed.some((s) => s.device === scale.device);

  return (
    <>
      <h2>Scale</h2>
      <div className="panel form" data-testid="scale">
        <label className="check">
          <input
            type="checkbox"
            checked={scale.enabled}
            onChange={(e) => void update({ scale: { ...scale, enabled: e.target.checked } })}
          />
          Read the weight from a USB scale when an order is scanned
        </label>
        <label>
          Scale
          <span className="row">
            <select
              aria-label="Scale device"
              value={scale.device ?? ''}
              onChange={(e) => void update({ scale: { ...scale, device: e.target.value || null } })}
            >
              <option value="">The first scale found</option>
              {listed.map((s) => (
                <option key={s.device} value={s.device}>
                  {s.model} ({s.device})
                </option>
              ))}
              {savedMissing ? (
                <option value={scale.device!}>{scale.device} (not plugged in now)</option>
              ) : null}
            </select>
            <button type="button" onClick={() => void discover()} disabled={searching}>
              Find scales
            </button>
          </span>
        </label>
        <div
          role="status"
          data-testid="scale-discovery"
          className={found && !searching && !listed.length ? 'warn' : 'muted'}
        >
          {found === null || searching
            ? 'Looking for USB scales…'
            : listed.length
              ? `Found ${listed.map((s) => s.model).join(', ')}.`
              : `No USB scale found: ${found.note ?? 'none is plugged in.'}`}
        </div>
        <span className="row">
          <button type="button" onClick={() => void readNow()} disabled={reads}>
            Read now
          </button>
          <output
            className={reading?.ok ? 'scale-reading' : 'scale-reading warn'}
            data-testid="scale-reading"
            aria-live="polite"
          >
            {reads ? 'Reading…' : (reading?.text ?? '')}
          </output>
        </span>
        <div className="muted small">
          Without a scale, type each package&apos;s weight on Pack (Alt+W); Alt+S reads the scale
          into the package in hand.
        </div>
      </div>
    </>
  );
}
