/** Export diagnostics for site IT. Handlers: src/core/station/features/diagnostics.ts. */
import { def, none } from './define.js';

/** Where "Export diagnostics" wrote its folder, and what is in it (paths inside the folder). */
export interface DiagnosticsExportView {
  folder: string;
  files: string[];
}

export const diagnosticsCalls = {
  /** Writes a diagnostics folder (logs, versions, database stats, profiles; no secrets). */
  'station.exportDiagnostics': def<DiagnosticsExportView>()(none),
};
