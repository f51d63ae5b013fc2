import { describe, expect, it } from 'vitest';
import { renderPackingSlip } from '../../../src/core/printing/packing-slip.js';
import { NetworkPrinter } from '../../../src/core/printing/drivers/network.js';
import { createServer } from 'node:net';
import { waitUntil } from '../../support/virtual-printer.js';

const slip = {
  orderNumber: 'ORD-1001',
  brand: 'Acme Outdoor',
  shipTo: { name: 'Dana Reyes', city: 'Austin', state: 'TX', postalCode: '78701' },
  items: [
    { sku: 'TENT-2P', name: 'Two-person tent', quantity: 1 },
    { sku: 'STAKE-AL', name: 'Aluminium stakes', quantity: 12 },
  ],
  trackingNumber: '1Z999AA10123456784',
  footer: 'Thank you!',
};

describe('packing slip (ESC/POS)', () => {
  it('lists the order number, each item with its quantity, and the totals', () => {
    const text = renderPackingSlip(slip).toString('latin1');
    expect(text).toContain('PACKING SLIP');
    expect(text).toContain('Order ORD-1001');
    expect(text).toMatch(/1 +Two-person tent +TENT-2P/);
    expect(text).toMatch(/12 +Aluminium stakes +STAKE-AL/);
    expect(text).toMatch(/2 lines +13 items/);
    expect(text).toContain('Ship to: Dana Reyes');
    expect(text).toContain('Tracking: 1Z999AA10123456784');
  });

  it('prints the order number as a Code 128 barcode with its text below, and cuts', () => {
    const bytes = renderPackingSlip(slip);
    // GS H 2 (text below), GS w 3, GS k 73 (CODE128) len "{B" + data
    const barcode = Buffer.concat([
      Buffer.from([
        0x1d,
        0x48,
        2,
        0x1d,
        0x66,
        0,
        0x1d,
        0x77,
        3,
        0x1d,
        0x68,
        80,
        0x1d,
        0x6b,
        73,
        'ORD-1001'.length + 2,
      ]),
      Buffer.from('{BORD-1001', 'latin1'),
    ]);
    expect(bytes.includes(barcode)).toBe(true);
    expect(bytes.includes(Buffer.from([0x1d, 0x56]))).toBe(true); // GS V: cut
  });

  it('fits a 58 mm printer (32 characters a line)', () => {
    const lines = renderPackingSlip(slip, { width: 32 })
      .toString('latin1')
      .split('\n')
      .filter((l) => l.startsWith('---'));
    expect(lines[0]).toBe('-'.repeat(32));
  });

  it('goes to a network receipt printer as is', async () => {
    const chunks: Buffer[] = [];
    const server = createServer((s) => s.on('data', (c: Buffer) => chunks.push(c)));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const bytes = renderPackingSlip(slip);
      await new NetworkPrinter({
        id: 'r',
        name: 'Receipt',
        kind: 'network',
        role: 'receipt',
        host: '127.0.0.1',
        port,
      }).send(bytes);
      await waitUntil(() => Buffer.concat(chunks).length === bytes.length);
      expect(Buffer.concat(chunks)).toEqual(bytes);
    } finally {
      server.close();
    }
  });
});
