import { decodeOrderFile } from '../../../shared/order-file-text';

/**
 * An order file's text as the station's own import reads it (decodeOrderFile): `File.text()`
 * would read a Windows-1252 file as UTF-8 and put a replacement character in every accented
 * letter ("Jos� M�ller" on the label).
 */
export async function readOrderFile(file: Blob): Promise<string> {
  return decodeOrderFile(new Uint8Array(await file.arrayBuffer()));
}
