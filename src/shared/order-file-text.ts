/**
 * The text of an order file as it comes off the disk, the same in the renderer (a file picked in
 * Settings or Orders) and the core (the hot folder). UTF-8 (with or without a BOM) is the
 * documented encoding; UTF-16 with a BOM is what Excel's "Unicode text" writes; anything that is
 * not valid UTF-8 is read as Windows-1252, which is what Excel's plain "CSV" writes on Windows
 * (so "Zoë" arrives as Zoë, not as Zo�).
 */
export function decodeOrderFile(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}
