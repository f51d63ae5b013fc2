import { callNames, type CallName, type EventName } from '../../shared/names.js';
import type { Result } from '../../shared/result.js';
import type { StationSettings, StationStatus } from '../../shared/views.js';
import { dispatch, type Handlers } from './dispatch.js';
import { notAvailable } from './errors.js';
import { StationEvents } from './events.js';
import type { StartSandbox, StationSecretVault, StationSettingsStore } from './ports.js';

export interface StationOptions {
  dataDir: string;
  settings: StationSettingsStore;
  vault: StationSecretVault;
  host: 'electron' | 'web';
  /** Starts the embedded sandbox for the first-run demo profile. */
  startSandbox?: StartSandbox;
  /** better-sqlite3's native binding for hosts whose ABI differs from Node (Electron). */
  nativeBinding?: string;
  /** A provisioning file (profiles.provision format) applied on start. */
  provisionFile?: string;
  /** Where `resources/` lives (sample orders, fixtures). */
  resourcesDir?: string;
  version?: string;
  log?: (line: string) => void;
}

export interface Station {
  readonly handlers: Handlers;
  readonly events: StationEvents;
  dispatch(name: unknown, input: unknown): Promise<Result<unknown>>;
  onEvent(listener: (name: EventName, payload: unknown) => void): () => void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

const defaultSettings: StationSettings = {
  userName: 'packer',
  sounds: true,
  boxes: [
    { id: 'box-s', name: 'Small 8×6×4', code: 'BOX-S', lengthIn: 8, widthIn: 6, heightIn: 4 },
    { id: 'box-m', name: 'Medium 12×10×6', code: 'BOX-M', lengthIn: 12, widthIn: 10, heightIn: 6 },
    { id: 'box-l', name: 'Large 18×14×10', code: 'BOX-L', lengthIn: 18, widthIn: 14, heightIn: 10 },
  ],
  scale: { enabled: false, device: null },
};

/**
 * The Station facade: composes the core modules into the contract's handlers. It wires and
 * translates; every business rule stays in the core module that owns it.
 */
export function createStation(options: StationOptions): Station {
  const log = options.log ?? (() => {});
  const events = new StationEvents();

  const readSettings = (): StationSettings => ({
    ...defaultSettings,
    ...((options.settings.get('station') as Partial<StationSettings> | undefined) ?? {}),
  });

  const status = async (): Promise<StationStatus> => ({
    profile: null,
    connectivity: 'unknown',
    connectivityDetail: null,
    printer: null,
    queue: { shipments: 0, printJobs: 0 },
    needsAttention: 0,
    expiredAccounts: [],
    dataDir: options.dataDir,
    host: options.host,
    version: options.version ?? '0.0.0',
  });

  const implemented: Partial<Handlers> = {
    'station.status': status,
    'settings.get': async () => readSettings(),
    'settings.update': async (patch) => {
      const next = { ...readSettings(), ...patch };
      options.settings.set('station', next);
      return next;
    },
  };

  const handlers = Object.fromEntries(
    callNames.map((name) => [
      name,
      implemented[name] ?? (() => Promise.reject(notAvailable(describe(name)))),
    ]),
  ) as Handlers;

  return {
    handlers,
    events,
    dispatch: (name, input) => dispatch(handlers, name, input, log),
    onEvent: (listener) => events.onAny(listener),
    async start() {},
    async stop() {},
  };
}

function describe(name: CallName): string {
  return `"${name}"`;
}
