export {
  openStationLog,
  LOG_DIR,
  LOG_FILE,
  type StationLog,
  type StationLogOptions,
} from './log-file.js';
export { Redactor, REDACTED, rememberingVault } from './redact.js';
