// The printing module's public surface. (The virtual printer is imported from
// './virtual-printer/server.js' directly: it is for demos and tests, not the app's print path.)
export * from './types.js';
export * from './zebra-status.js';
export * from './zpl.js';
export * from './discovery.js';
export * from './packing-slip.js';
export * from './preview.js';
export {
  createPrinterDriver,
  NetworkPrinter,
  OsQueuePrinter,
  UsbPrinter,
  type DriverOptions,
} from './drivers/index.js';
export {
  PrintSpool,
  PrintSpoolError,
  type EnqueueResult,
  type PrinterNotice,
  type PrintJob,
  type PrintJobEvent,
  type PrintJobKind,
  type PrintJobState,
  type PrintSpoolErrorCode,
  type PrintSpoolEvents,
  type PrintSpoolOptions,
} from './spool/print-spool.js';
