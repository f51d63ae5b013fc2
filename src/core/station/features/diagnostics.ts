import { join } from 'node:path';
import { exportDiagnostics } from '../../diagnostics/export.js';
import { LOG_DIR, Redactor } from '../../logging/index.js';
import { clientSecretKey } from '../../profiles/secret-vault.js';
import { SITE_PASSWORD_KEY } from '../../site/config.js';
import type { StationContext } from '../context.js';
import type { FeatureHandlers } from '../../../shared/features/define.js';
import type { diagnosticsCalls } from '../../../shared/features/diagnostics.js';
import { SITE_SETTING } from './site-link.js';

/** "Export diagnostics" (Settings → Station, both hosts): a folder for site IT, no secrets. */
export function diagnosticsHandlers(ctx: StationContext): FeatureHandlers<typeof diagnosticsCalls> {
  return {
    'station.exportDiagnostics': async () => {
      const redactor = ctx.options.stationLog?.redactor ?? new Redactor(ctx.options.env);
      // Every secret this station has is known to the redactor before anything is written,
      // even one not used in this run (a log line from an earlier run may quote it).
      const env = ctx.options.env ?? process.env;
      const vault = ctx.options.vault;
      for (const p of ctx.profiles.list()) {
        redactor.remember(await vault.get(clientSecretKey(p.id)));
        if (p.clientSecretEnv) redactor.remember(env[p.clientSecretEnv]);
      }
      redactor.remember(await vault.get(SITE_PASSWORD_KEY));
      const profiles = await ctx.handlersRef!['profiles.list']({} as never);
      // The lines logged a moment ago (what site IT is exporting for) are in the copy.
      await ctx.options.stationLog?.written?.();
      const done = exportDiagnostics({
        dataDir: ctx.options.dataDir,
        logDir: ctx.options.stationLog?.dir ?? join(ctx.options.dataDir, LOG_DIR),
        db: ctx.db,
        redactor,
        host: ctx.options.host,
        appVersion: ctx.options.version ?? 'unknown',
        profiles,
        siteStore: ctx.options.settings.get(SITE_SETTING) ?? null,
        stationSettings: ctx.stationSettings(),
      });
      ctx.log(`diagnostics exported to ${done.folder}`);
      return done;
    },
  };
}
