// Generates resources/icons/icon.png (512x512), icon.ico (PNG inside ICO) and 256x256.png:
// a yellow label with three black bars on a dark square. No image library needed.
import { deflateSync } from 'node:zlib';
import { mkdirSync, writeFileSync } from 'node:fs';

function crc32(buf) {
  let c,
    crc = 0xffffffff;
  for (const b of buf) {
    c = (crc ^ b) & 0xff;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    crc = (crc >>> 8) ^ c;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
function png(size) {
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let x = 0; x < size; x++) {
      const u = x / size,
        v = y / size;
      let rgb = [15, 20, 25];
      if (u > 0.2 && u < 0.8 && v > 0.12 && v < 0.88) rgb = [250, 204, 21];
      const bar = (a, b) => v > a && v < b && u > 0.3 && u < 0.7;
      if (
        bar(0.25, 0.33) ||
        bar(0.45, 0.53) ||
        (v > 0.62 && v < 0.78 && u > 0.3 && u < 0.7 && Math.floor(u * 60) % 2 === 0)
      )
        rgb = [17, 17, 17];
      row.set([...rgb, 255], 1 + x * 4);
    }
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
function ico(pngBuf) {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(1, 4);
  const entry = Buffer.alloc(16);
  entry[0] = 0;
  entry[1] = 0; // 256x256
  entry.writeUInt16LE(1, 4);
  entry.writeUInt16LE(32, 6);
  entry.writeUInt32LE(pngBuf.length, 8);
  entry.writeUInt32LE(22, 12);
  return Buffer.concat([header, entry, pngBuf]);
}
mkdirSync('resources/icons', { recursive: true });
writeFileSync('resources/icons/icon.png', png(512));
writeFileSync('resources/icons/256x256.png', png(256));
writeFileSync('resources/icons/icon.ico', ico(png(256)));
console.log('icons written to resources/icons/');
