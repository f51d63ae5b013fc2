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

/**
 * Where a file in unknown columns is mapped, as the import report says it: from the hot folder
 * the person is pointed to the views that map a file (MAP_ELSEWHERE); in Orders or Settings →
 * Orders, where the mapping form is right under the report, the report says so instead
 * (MAP_HERE; until 2026-11-29 it sent the person in Orders to Orders).
 */
export const MAP_ELSEWHERE =
  'Import the file from Orders (Alt+8) or Settings → Orders (Alt+7) and map its columns once';
export const MAP_HERE = 'Map its columns once in the form below this report';

/** A problem's words for the report shown right above the mapping form. */
export function mappedHere(reason: string): string {
  return reason.replace(MAP_ELSEWHERE, MAP_HERE);
}
