/**
 * An order file's text as the station's own import reads it (core `decodeOrderFile`): UTF-16
 * by its byte-order mark, else UTF-8, and a file that is not valid UTF-8 as Windows-1252 (what
 * Excel saves a "CSV" as on a Western-European Windows). `File.text()` would read such a file
 * as UTF-8 and put a replacement character in every accented letter: "Jos� M�ller" on the label.
 */
export async function readOrderFile(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}
