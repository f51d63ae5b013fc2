import { useEffect, useState } from 'react';
import { call, getBridge } from '../../bridge';
import { useStation } from '../../store';
import type { SiteSettingsView } from '../../../../shared/features/site-services';

const labels: Record<keyof SiteSettingsView['sources'], string> = {
  boxPresets: 'Box presets',
  rateRule: 'Rate rule',
  packingSlip: 'Packing slip',
  offlinePurchase: 'Buying while the site store is down',
  reprintsWithoutLead: 'Reprints without a shift lead',
};
const overridable = new Set(['boxPresets', 'rateRule', 'packingSlip']);

/**
 * Settings → Site settings: which values come from the site and which this station keeps as
 * its own (the marker), with the switch between the two (issue 14).
 */
export function SiteSettingsPanel() {
  const hasSite = useStation((s) => Boolean(s.status?.site));
  const loadSettings = useStation((s) => s.loadSettings);
  const [view, setView] = useState<SiteSettingsView | null>(null);
  useEffect(() => {
    let live = true;
    const load = () =>
      void call('siteSettings.get', {}).then((r) => {
        if (live && r.ok) setView(r.value);
      });
    if (hasSite) load();
    const off = getBridge().on('status', load);
    return () => {
      live = false;
      off();
    };
  }, [hasSite]);
  if (!hasSite || !view) return null;
  async function toggle(key: 'boxPresets' | 'rateRule' | 'packingSlip', override: boolean) {
    const r = await call('siteSettings.override', { key, override });
    if (r.ok) setView(r.value);
    void loadSettings();
  }
  return (
    <section className="panel" data-testid="site-settings-panel">
      <h2>Site settings</h2>
      <table className="table">
        <tbody>
          {(Object.keys(labels) as (keyof typeof labels)[]).map((k) => {
            const source = view.sources[k];
            return (
              <tr key={k} data-testid={`site-setting-${k}`}>
                <td>{labels[k]}</td>
                <td className="value" data-testid={`site-setting-value-${k}`}>
                  {view.values?.[k] ??
                    (k === 'reprintsWithoutLead' ? view.reprintsWithoutLead : '')}
                </td>
                <td>
                  {source === 'site' ? (
                    <span className="chip on">from the site</span>
                  ) : source === 'station-override' ? (
                    <span className="chip override" title="This station keeps its own value">
                      ⚑ this station's own (overrides the site)
                    </span>
                  ) : (
                    <span className="muted">this station's (not set for the site)</span>
                  )}
                </td>
                <td>
                  {overridable.has(k) && source !== 'station' ? (
                    <button
                      className="link"
                      onClick={() =>
                        void toggle(
                          k as 'boxPresets' | 'rateRule' | 'packingSlip',
                          source === 'site',
                        )
                      }
                    >
                      {source === 'site' ? 'Keep this station’s own' : 'Follow the site'}
                    </button>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
