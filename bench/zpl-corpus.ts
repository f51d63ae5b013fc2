import { zplForPackage } from '../src/sandbox/labels/zpl.js';

// Carrier labels are rarely text alone: most carry a logo or a 2D code as a ^GF graphic,
// which is what makes a real label "a few KB". The corpus mixes both, with varied addresses.

const cities = [
  ['Columbus', 'OH', '43004'],
  ['Reno', 'NV', '89501'],
  ['Austin', 'TX', '73301'],
  ['Newark', 'NJ', '07101'],
  ['Tacoma', 'WA', '98402'],
  ['Denver', 'CO', '80202'],
  ['Miami', 'FL', '33101'],
  ['Fargo', 'ND', '58102'],
] as const;
const services = ['UPS Ground', 'FedEx Ground', 'USPS Priority Mail', 'DHL Express 12'];

/** Deterministic pseudo-random numbers, so every run stores the same database. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function graphic(random: () => number): string {
  const bytesPerRow = 16 + Math.floor(random() * 24);
  const rows = 40 + Math.floor(random() * 60);
  let hex = '';
  for (let i = 0; i < bytesPerRow * rows; i++) {
    hex += Math.floor(random() * 256)
      .toString(16)
      .padStart(2, '0')
      .toUpperCase();
  }
  return `^FO560,20^GFA,${bytesPerRow * rows},${bytesPerRow * rows},${bytesPerRow},${hex}^FS`;
}

export interface CorpusLabel {
  zpl: string;
  trackingNumber: string;
}

/** `size` distinct label templates; `label(i)` varies the tracking number of one of them. */
export function zplCorpus(
  size: number,
  seed = 42,
): { label(i: number): CorpusLabel; averageBytes: number } {
  const random = rng(seed);
  const templates: string[] = [];
  for (let i = 0; i < size; i++) {
    const [city, state, zip] = cities[i % cities.length]!;
    const zpl = zplForPackage({
      shipFrom: {
        name: 'Northwind Fulfilment',
        addressLine1: '500 Commerce Way',
        city: 'Columbus',
        stateProvince: 'OH',
        postalCode: '43004',
        countryCode: 'US',
      },
      shipTo: {
        name: `Customer ${i}`,
        company: i % 3 === 0 ? `Company ${i} LLC` : undefined,
        addressLine1: `${100 + i} Main Street`,
        addressLine2: i % 4 === 0 ? `Suite ${i % 500}` : undefined,
        city,
        stateProvince: state,
        postalCode: zip,
        countryCode: 'US',
      },
      serviceName: services[i % services.length]!,
      trackingNumber: 'TRACKINGPLACEHOLDER',
      weightLbs: 1 + (i % 40),
      packageIndex: 1,
      packageCount: 1,
      orderReference: `ORD-${i}`,
      createdAt: '2026-11-21T10:00:00.000Z',
    });
    // Two of three carry a graphic, as most carriers' labels do.
    templates.push(i % 3 === 2 ? zpl : zpl.replace('^XZ', `${graphic(random)}\n^XZ`));
  }
  const averageBytes = templates.reduce((n, t) => n + t.length, 0) / templates.length;
  return {
    averageBytes,
    label(i: number): CorpusLabel {
      const trackingNumber = `1ZBENCH${i.toString().padStart(11, '0')}`;
      return {
        trackingNumber,
        zpl: templates[i % templates.length]!.replaceAll('TRACKINGPLACEHOLDER', trackingNumber),
      };
    },
  };
}
