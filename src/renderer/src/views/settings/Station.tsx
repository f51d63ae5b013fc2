import { useEffect, useState } from 'react';
import { call, getBridge } from '../../bridge';
import { useStation } from '../../store';
import type {
  DiagnosticsExportView,
  ImportProgressView,
  ImportReport,
  RateRule,
} from '../../../../shared/views';
import { ColumnMapping } from './ColumnMapping';
import { readOrderFile } from '../../lib/read-file';
import { ImportReportPanel } from '../ImportReportPanel';

const phaseWords: Record<ImportProgressView['phase'], string> = {
  reading: 'reading the file',
  checking: 'checking rows',
  storing: 'storing orders',
};

function progressText(p: ImportProgressView): string {
  return p.phase === 'reading'
    ? `Importing ${p.fileName}: reading the file (${p.done}%)…`
    : `Importing ${p.fileName}: ${phaseWords[p.phase]} ${p.done.toLocaleString()} of ${p.total.toLocaleString()}…`;
}

export function StationPanel() {
  const settings = useStation((s) => s.settings);
  const update = useStation((s) => s.updateSettings);
  const profile = useStation((s) => s.status?.profile ?? null);
  const notify = useStation((s) => s.notify);
  const refreshStatus = useStation((s) => s.refreshStatus);
  const [report, setReport] = useState<ImportReport | null>(null);
  // The file of the last import: imported again once its columns are mapped.
  const [lastFile, setLastFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<ImportProgressView | null>(null);
  useEffect(() => getBridge().on('import-progress', setProgress), []);
  const [rule, setRule] = useState<RateRule | null>(profile?.rateRule ?? null);
  // As typed: "abc" or "-1" is said at Save, not turned into no limit.
  const [maxDays, setMaxDays] = useState(String(profile?.rateRule.maxTransitDays ?? ''));
  const [hotFolder, setHotFolder] = useState(profile?.hotFolder ?? '');

  async function importFile(file: File) {
    setReport(null);
    setLastFile(file);
    setProgress({ fileName: file.name, phase: 'reading', done: 0, total: 100 });
    const r = await call('orders.import', {
      fileName: file.name,
      content: await readOrderFile(file),
    });
    setProgress(null);
    if (r.ok) {
      setReport(r.value);
      // Nothing came in: said as a problem, with the first reason, not as a success.
      const first = r.value.errors[0];
      const already = r.value.alreadyImported ?? 0;
      if (r.value.imported === 0 && r.value.skipped === 0 && already === 0 && first)
        notify('error', `Nothing imported from ${file.name}: ${first.reason}`);
      else if (r.value.imported === 0 && already > 0)
        notify(
          'ok',
          `Nothing new in ${file.name}: its ${already} ${already === 1 ? 'order is' : 'orders are'} already here, unchanged.`,
        );
      else
        notify(
          'ok',
          `Imported ${r.value.imported} order${r.value.imported === 1 ? '' : 's'} from ${file.name}${r.value.format ? ` (${r.value.format})` : ''}.`,
        );
    } else notify('error', r.error.message);
  }
  async function saveProfile(patch: {
    rateRule?: RateRule;
    hotFolder?: string | null;
    requireItemVerification?: boolean;
  }) {
    if (!profile) return;
    const r = await call('profiles.update', { id: profile.id, ...patch });
    notify(r.ok ? 'ok' : 'error', r.ok ? 'Saved.' : r.error.message);
    await refreshStatus();
  }

  const [exporting, setExporting] = useState(false);
  const [exported, setExported] = useState<DiagnosticsExportView | null>(null);
  async function exportDiagnostics() {
    setExporting(true);
    const r = await call('station.exportDiagnostics', {});
    setExporting(false);
    if (r.ok) {
      setExported(r.value);
      notify('ok', `Diagnostics written to ${r.value.folder}`);
    } else notify('error', r.error.message);
  }

  async function chooseHotFolder() {
    if (!profile) return;
    // The main process shows the native folder dialog; a page never names a folder itself.
    const r = await call('profiles.chooseHotFolder', { id: profile.id });
    if (!r.ok) notify('error', r.error.message);
    await refreshStatus();
  }

  return (
    <>
      <h1>Orders</h1>
      <label className="file">
        Import orders (CSV, a store export, Amazon .txt, or JSON)…
        <input
          type="file"
          accept=".csv,.tsv,.txt,.json,text/csv,text/tab-separated-values,text/plain,application/json"
          aria-label="Import orders file"
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) void importFile(f);
            e.target.value = '';
          }}
        />
      </label>
      {progress ? (
        <p className="muted" role="status" data-testid="import-progress">
          {progressText(progress)}
        </p>
      ) : null}
      {report ? (
        <ImportReportPanel
          report={report}
          mapsHere={Boolean(report.unmappedHeader?.length && lastFile)}
        />
      ) : null}
      {report?.unmappedHeader?.length && lastFile ? (
        <ColumnMapping
          key={lastFile.name}
          fileName={lastFile.name}
          header={report.unmappedHeader}
          suggested={report.suggestedColumns ?? {}}
          onSaved={() => void importFile(lastFile)}
        />
      ) : null}
      {profile && useStation.getState().status?.host === 'electron' ? (
        <label>
          Hot folder (orders dropped here are imported)
          <span className="row">
            <input aria-label="Hot folder" value={profile.hotFolder ?? ''} readOnly />
            <button onClick={() => void chooseHotFolder()}>Choose folder…</button>
            {profile.hotFolder ? (
              <button onClick={() => void saveProfile({ hotFolder: null })}>Clear</button>
            ) : null}
          </span>
        </label>
      ) : profile ? (
        <label>
          Hot folder (orders dropped here are imported; under a folder given with --hot-folder-root)
          <span className="row">
            <input
              aria-label="Hot folder"
              value={hotFolder}
              onChange={(e) => setHotFolder(e.target.value)}
              onKeyDown={(e) => {
                // Enter saves, as in every other one-field form of Settings.
                if (e.key === 'Enter') void saveProfile({ hotFolder: hotFolder.trim() || null });
              }}
            />
            <button onClick={() => void saveProfile({ hotFolder: hotFolder.trim() || null })}>
              Save
            </button>
          </span>
        </label>
      ) : null}

      {rule ? (
        <>
          <h2>Rate rule</h2>
          <div className="panel form">
            <label>
              Choose
              <select
                aria-label="Rate strategy"
                value={rule.strategy}
                onChange={(e) =>
                  setRule({ ...rule, strategy: e.target.value as RateRule['strategy'] })
                }
              >
                <option value="cheapest">Cheapest</option>
                <option value="fastest">Fastest</option>
              </select>
            </label>
            <label>
              Preferred service levels (comma separated)
              <input
                aria-label="Preferred service levels"
                value={rule.preferredServiceLevels.join(', ')}
                onChange={(e) =>
                  setRule({ ...rule, preferredServiceLevels: split(e.target.value) })
                }
              />
            </label>
            <label>
              Maximum transit days
              <input
                aria-label="Maximum transit days"
                inputMode="numeric"
                value={maxDays}
                onChange={(e) => setMaxDays(e.target.value)}
              />
            </label>
            <label>
              Excluded carriers (comma separated)
              <input
                aria-label="Excluded carriers"
                value={rule.excludedCarriers.join(', ')}
                onChange={(e) => setRule({ ...rule, excludedCarriers: split(e.target.value) })}
              />
            </label>
            <button
              onClick={() => {
                const typed = maxDays.trim();
                if (typed !== '' && !/^[1-9]\d{0,2}$/.test(typed)) {
                  notify(
                    'error',
                    `Maximum transit days: "${typed}" is not a number of days. Type a whole number, 1 or more, or leave it empty for no limit. The rate rule was not saved.`,
                  );
                  return;
                }
                void saveProfile({
                  rateRule: { ...rule, maxTransitDays: typed === '' ? null : Number(typed) },
                });
              }}
            >
              Save rate rule
            </button>
          </div>
          <h2>Scan to verify</h2>
          <div className="panel form">
            <label className="check">
              <input
                type="checkbox"
                aria-label="Require every item scanned before a label is bought"
                checked={profile?.requireItemVerification ?? false}
                onChange={(e) => void saveProfile({ requireItemVerification: e.target.checked })}
              />
              Require every item scanned before a label is bought (a shift lead may override with a
              reason)
            </label>
          </div>
        </>
      ) : null}

      {settings ? (
        <>
          <h2>Station</h2>
          <div className="panel form">
            <label>
              Packer name (for the reprint audit)
              <input
                aria-label="Packer name"
                value={settings.userName}
                onChange={(e) => void update({ userName: e.target.value || 'packer' })}
              />
            </label>
            <label className="check">
              <input
                type="checkbox"
                checked={settings.sounds}
                onChange={(e) => void update({ sounds: e.target.checked })}
              />
              Sounds for success and failure
            </label>
          </div>
          <p className="muted small">
            Data directory: {useStation.getState().status?.dataDir} · host{' '}
            {useStation.getState().status?.host} · v{useStation.getState().status?.version}
          </p>
          <h2>Diagnostics</h2>
          <div className="panel form">
            <p className="muted">
              For site IT: a folder with the station's log, versions, database figures and profiles.
              It holds no client secret, password or token.
            </p>
            <span className="row">
              <button disabled={exporting} onClick={() => void exportDiagnostics()}>
                {exporting ? 'Exporting…' : 'Export diagnostics'}
              </button>
            </span>
            {exported ? (
              <p role="status" data-testid="diagnostics-folder">
                Written to <code>{exported.folder}</code> ({exported.files.length} files)
              </p>
            ) : null}
          </div>
        </>
      ) : null}
    </>
  );
}

const split = (v: string) =>
  v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
