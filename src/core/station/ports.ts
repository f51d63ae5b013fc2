/**
 * What a host hands the station: the few things only the host can do. The Electron host
 * passes electron-store and safeStorage; the web host a JSON file and a file readable only by
 * the user. (The profiles module defines its own interfaces; these are the facade's view of
 * them and are adapted in one place when they differ.)
 */
export interface StationSettingsStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
}

export interface StationSecretVault {
  /** Whether secrets can be stored safely here; when not, `reason` says why, for the user. */
  availability(): { available: boolean; reason: string | null };
  get(name: string): Promise<string | null>;
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<void>;
}

/** An embedded sandbox, started in-process by the host (core may not import src/sandbox). */
export interface EmbeddedSandbox {
  baseUrl: string;
  /** Demo credentials of the embedded world: which API client to use, for which tenant. */
  clientId: string;
  clientSecret: string;
  tenantId: string;
  close(): Promise<void>;
}

export type StartSandbox = (options: { dataDir: string }) => Promise<EmbeddedSandbox>;
