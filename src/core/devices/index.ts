export * from './scale-report.js';
export {
  HidScale,
  isScale,
  KNOWN_SCALES,
  scaleModel,
  UNPLUGGED,
  type HidScaleOptions,
  type KnownScale,
} from './hid-scale.js';
export {
  HID_USAGE_PAGE_SCALE,
  systemHid,
  type HidDeviceInfo,
  type HidDeviceLike,
  type HidPort,
} from './hid.js';
export { systemUsbBus, type UsbBus, type UsbDeviceLike } from './usb-bus.js';
