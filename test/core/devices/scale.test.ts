import { describe, expect, it } from 'vitest';
import { parseScaleReport, toPounds } from '../../../src/core/devices/scale-report.js';
import { HidScale } from '../../../src/core/devices/hid-scale.js';
import { systemHid } from '../../../src/core/devices/hid.js';
import { FakeHid, FakeHidScale } from './fake-hid.js';

// Report bytes: [report id 3, status, unit, exponent, weight LSB, weight MSB]
const OZ = 11;
const LB = 12;
const G = 2;
const KG = 3;

describe('HID scale reports', () => {
  it.each([
    ['Dymo M10, ounces (tenths)', [3, 4, OZ, 0xff, 0x2c, 0x01], 30, 'oz', 1.875],
    ['Dymo M25, grams', [3, 4, G, 0x00, 0xe8, 0x03], 1000, 'g', 2.2046],
    ['Stamps.com 510, ounces (tenths)', [3, 4, OZ, 0xff, 0x9f, 0x00], 15.9, 'oz', 0.9938],
    ['Mettler Toledo PS60, pounds (hundredths)', [3, 4, LB, 0xfe, 0xd2, 0x04], 12.34, 'lb', 12.34],
    ['kilograms (thousandths)', [3, 4, KG, 0xfd, 0xc4, 0x09], 2.5, 'kg', 5.5116],
  ])('%s', (_model, bytes, value, unit, lbs) => {
    expect(parseScaleReport(Uint8Array.from(bytes))).toMatchObject({
      state: 'stable',
      value,
      unit,
      weightLbs: lbs,
    });
  });

  it('zero is a real reading of 0 lb, asking for the parcel', () => {
    expect(parseScaleReport(Uint8Array.from([3, 2, OZ, 0xff, 0, 0]))).toMatchObject({
      state: 'zero',
      weightLbs: 0,
      message: 'The scale reads zero: put the parcel on it',
    });
  });

  it('an empty read is no reading, not 0 lb', () => {
    expect(parseScaleReport(new Uint8Array(0))).toMatchObject({
      state: 'no-reading',
      weightLbs: null,
    });
  });

  it('gives no weight while settling, below zero, overloaded or faulty', () => {
    const cases: [number[], string, RegExp][] = [
      [[3, 3, OZ, 0xff, 0x10, 0x00], 'in-motion', /Hold still/],
      [[3, 5, OZ, 0xff, 0x0a, 0x00], 'negative', /below zero: take everything off and press Zero/],
      [[3, 6, LB, 0xfe, 0xff, 0xff], 'overload', /Too heavy/],
      [[3, 1, 0, 0, 0, 0], 'fault', /fault/],
      [[3, 8, LB, 0, 0, 0], 'needs-zeroing', /press Zero/],
    ];
    for (const [bytes, state, message] of cases) {
      const reading = parseScaleReport(Uint8Array.from(bytes))!;
      expect(reading.state).toBe(state);
      expect(reading.weightLbs).toBeNull();
      expect(reading.message).toMatch(message);
    }
    expect(parseScaleReport(Uint8Array.from([3, 5, OZ, 0xff, 0x0a, 0x00]))!.value).toBe(-1);
  });

  it('ignores other reports and refuses units it cannot convert', () => {
    expect(parseScaleReport(Uint8Array.from([4, 0, 0, 0, 0, 0]))).toBeNull();
    expect(parseScaleReport(Uint8Array.from([3, 4]))).toBeNull();
    expect(parseScaleReport(Uint8Array.from([3, 4, 4, 0, 10, 0]))).toMatchObject({
      state: 'fault',
      weightLbs: null,
    });
  });

  it('converts every unit to pounds', () => {
    expect(toPounds(16, 'oz')).toBe(1);
    expect(toPounds(453.59237, 'g')).toBe(1);
    expect(toPounds(1, 'kg')).toBe(2.2046);
  });
});

describe('HID scale (node-hid)', () => {
  const keyboard = {
    vendorId: 0x046d,
    productId: 0xc31c,
    product: 'USB Keyboard',
    path: '/dev/hidraw-kbd',
    interface: 0,
    release: 1,
    usagePage: 0x01,
    usage: 0x06,
  };
  function setup(vendorId: number, productId: number, name: string) {
    const hid = new FakeHid();
    hid.plugOther(keyboard); // another HID device is not a scale
    const scale = new FakeHidScale(vendorId, productId, name);
    hid.plug(scale);
    return { hid, scale, reader: new HidScale({ hid }) };
  }

  it('loads the real node-hid addon on this machine and lists its HID devices', async () => {
    const port = await systemHid();
    const devices = await port.devicesAsync();
    expect(Array.isArray(devices)).toBe(true);
  });

  it('waits through motion and reports the stable weight (Dymo M10)', async () => {
    const { scale, reader } = setup(0x0922, 0x8003, 'M10 10 Kg Digital Postal Scale');
    scale.upcoming.push(
      [3, 3, OZ, 0xff, 0x10, 0x00],
      [3, 3, OZ, 0xff, 0x20, 0x01],
      [3, 4, OZ, 0xff, 0x2c, 0x01],
    );
    expect(await reader.read()).toMatchObject({ state: 'stable', weightLbs: 1.875 });
    // The queue is empty (read(0)), then it waits for each report the scale sends.
    expect(scale.calls).toEqual(['open', 'read(0)', 'read(1000)', 'read(1000)', 'read(1000)']);
    expect(await reader.list()).toEqual([
      { model: 'Dymo M10', vendorId: 0x0922, productId: 0x8003 },
    ]);
  });

  it('finds any scale on the Scale usage page (0x8D), known model or not', async () => {
    const hid = new FakeHid();
    hid.plugOther(keyboard);
    const unknown = new FakeHidScale(0x1234, 0x5678, 'Shop Scale 30');
    hid.plug(unknown);
    // A known model whose backend reports no usage page (hidapi over libusb) is still a scale.
    const noPage = new FakeHidScale(0x0922, 0x8004, 'M25', undefined);
    hid.plug(noPage);
    expect(await new HidScale({ hid }).list()).toEqual([
      { model: 'Shop Scale 30', vendorId: 0x1234, productId: 0x5678 },
      { model: 'Dymo M25', vendorId: 0x0922, productId: 0x8004 },
    ]);
    noPage.reports.push([3, 4, LB, 0xfe, 0xf4, 0x01]);
    expect(await new HidScale({ hid, vendorId: 0x0922, productId: 0x8004 }).read()).toMatchObject({
      state: 'stable',
      value: 5,
      unit: 'lb',
      weightLbs: 5,
    });
  });

  it('follows the packer switching the scale from ounces to grams (Dymo M25)', async () => {
    const { scale, reader } = setup(0x0922, 0x8004, 'M25 25 Lb Digital Postal Scale');
    scale.reports.push([3, 4, OZ, 0xff, 0xa0, 0x00]);
    expect(await reader.read()).toMatchObject({ unit: 'oz', value: 16, weightLbs: 1 });
    scale.reports.push([3, 4, G, 0x00, 0xc6, 0x01]);
    expect(await reader.read()).toMatchObject({ unit: 'g', value: 454, weightLbs: 1.0009 });
  });

  it('reads the newest report, not one queued while nobody read (the parcel was swapped)', async () => {
    const { scale, reader } = setup(0x0922, 0x8004, 'M25');
    scale.reports.push(
      [3, 4, LB, 0xfe, 0x64, 0x00], // 1 lb: the last parcel
      [3, 3, LB, 0xfe, 0x2c, 0x01],
      [3, 4, LB, 0xfe, 0xf4, 0x01], // 5 lb: the parcel on it now
    );
    expect(await reader.read()).toMatchObject({ state: 'stable', weightLbs: 5 });
    expect(scale.reports).toEqual([]);
  });

  it('reads a Stamps.com scale and a Mettler Toledo PS60', async () => {
    const stamps = setup(0x1446, 0x6a73, 'Stamps.com Digital Postal Scale');
    stamps.scale.reports.push([3, 4, OZ, 0xff, 0x9f, 0x00]);
    expect((await stamps.reader.read()).weightLbs).toBe(0.9938);
    const ps60 = setup(0x0eb8, 0xf000, 'Mettler Toledo PS60');
    ps60.scale.reports.push([3, 3, LB, 0xfe, 0x00, 0x04], [3, 4, LB, 0xfe, 0xd2, 0x04]);
    expect((await ps60.reader.read()).weightLbs).toBe(12.34);
  });

  it('below zero, overweight and zero come through as such, with no weight to ship', async () => {
    const { scale, reader } = setup(0x0eb8, 0xf000, 'PS60');
    scale.reports.push([3, 5, KG, 0xfd, 0xf4, 0x01]); // -0.5 kg
    expect(await reader.read()).toMatchObject({
      state: 'negative',
      value: -0.5,
      unit: 'kg',
      weightLbs: null,
    });
    scale.reports.push([3, 6, LB, 0xfe, 0xff, 0xff]);
    expect(await reader.read()).toMatchObject({ state: 'overload', weightLbs: null });
    scale.reports.push([3, 2, G, 0x00, 0x00, 0x00]);
    expect(await reader.read()).toMatchObject({ state: 'zero', weightLbs: 0, unit: 'g' });
  });

  it('a read that times out, an empty report or no scale at all is "no reading", never 0 lb', async () => {
    const { scale, reader } = setup(0x0922, 0x8003, 'M10');
    scale.reports.push([]);
    expect(await reader.read()).toMatchObject({ state: 'no-reading', weightLbs: null });
    expect(await reader.read()).toMatchObject({
      state: 'no-reading',
      weightLbs: null,
      message: 'No reading from the scale; type the weight or check the scale',
    }); // nothing sent
    const none = new HidScale({ hid: new FakeHid() });
    expect(await none.read()).toMatchObject({
      state: 'no-reading',
      message: 'No scale is plugged in; type the weight',
    });
  });

  it('gives "hold still" when the scale never settles', async () => {
    const hid = new FakeHid();
    const wobbly = new FakeHidScale(0x0922, 0x8003, 'M10');
    hid.plug(wobbly);
    wobbly.upcoming.push(...Array.from({ length: 9 }, (_, i) => [3, 3, OZ, 0xff, 10 + i, 0]));
    expect(await new HidScale({ hid, maxReports: 5 }).read()).toMatchObject({
      state: 'in-motion',
      weightLbs: null,
      message: expect.stringMatching(/Hold still/),
    });
    expect(wobbly.upcoming).toHaveLength(4); // at most 5 reports were waited for
    // Motion, then silence: still "hold still", not "no reading".
    const quiet = new FakeHidScale(0x0922, 0x8003, 'M10');
    hid.unplug(wobbly);
    hid.plug(quiet);
    quiet.upcoming.push([3, 3, OZ, 0xff, 0x10, 0x00]);
    expect((await new HidScale({ hid }).read()).state).toBe('in-motion');
  });

  it('says "unplugged" on the first read after an unplug, and reads again once it is back', async () => {
    const { hid, scale, reader } = setup(0x0922, 0x8003, 'M10');
    scale.reports.push([3, 4, OZ, 0xff, 0xa0, 0x00]);
    expect((await reader.read()).weightLbs).toBe(1);
    hid.unplug(scale);
    expect(await reader.read()).toMatchObject({
      state: 'no-reading',
      weightLbs: null,
      message: 'No scale is plugged in; type the weight',
    });
    expect(scale.calls.at(-1)).toBe('close');
    const again = new FakeHidScale(0x0922, 0x8003, 'M10');
    again.reports.push([3, 4, OZ, 0xff, 0x40, 0x01]);
    hid.plug(again);
    expect((await reader.read()).weightLbs).toBe(2);
    await reader.close();
    expect(again.closed).toBe(true);
  });
});
