import { describe, expect, it } from 'vitest';
import { UsbScale } from '../../../src/core/devices/usb-scale.js';
import { FakeUsbBus, FakeUsbScale } from './fake-usb.js';

describe('USB scale unplugged while claimed', () => {
  it('the first read after the unplug already says no scale is plugged in', async () => {
    const bus = new FakeUsbBus();
    const scale = new FakeUsbScale(0x0922, 0x8003, 'M10');
    bus.plug(scale);
    const reader = new UsbScale({ bus });
    scale.reports.push([3, 4, 11, 0xff, 0xa0, 0x00]);
    expect((await reader.read()).weightLbs).toBe(1);
    bus.unplug(scale);
    expect(await reader.read()).toMatchObject({
      state: 'no-reading',
      weightLbs: null,
      message: 'No scale is plugged in; type the weight',
    });
  });

  it('a scale still plugged in that sends nothing is "no reading", not "unplugged"', async () => {
    const bus = new FakeUsbBus();
    bus.plug(new FakeUsbScale(0x0922, 0x8003, 'M10'));
    expect(await new UsbScale({ bus }).read()).toMatchObject({
      state: 'no-reading',
      message: 'No reading from the scale; type the weight or check the scale',
    });
  });
});
