export * from './scale-report.js';
export {
  KNOWN_SCALES,
  scaleModel,
  UsbScale,
  type KnownScale,
  type UsbScaleOptions,
} from './usb-scale.js';
export { systemUsbBus, type UsbBus, type UsbDeviceLike } from './usb-bus.js';
