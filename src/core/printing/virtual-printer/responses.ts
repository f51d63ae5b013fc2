/** What the virtual printer answers to `~HS` and `~HQES`, in Zebra's own framing. */

export type VirtualFault = 'paper-out' | 'head-open' | 'paused' | 'ribbon-out';

export interface VirtualPrinterState {
  fault: VirtualFault | null;
  formatsInBuffer: number;
  dpi: number;
}

const STX = '\x02';
const ETX = '\x03';
const frame = (body: string) => `${STX}${body}${ETX}\r\n`;
const bit = (b: boolean) => (b ? '1' : '0');

export function hostStatusAnswer(state: VirtualPrinterState): string {
  const labelLength = String(Math.round(6 * state.dpi)).padStart(4, '0');
  const formats = String(Math.min(state.formatsInBuffer, 999)).padStart(3, '0');
  const one = [
    '030',
    bit(state.fault === 'paper-out'),
    bit(state.fault === 'paused'),
    labelLength,
    formats,
    '0', // buffer full
    '0', // diagnostic mode
    '0', // partial format
    '000',
    '0', // corrupt RAM
    '0', // under temperature
    '0', // over temperature
  ].join(',');
  const two = [
    '001',
    '0',
    bit(state.fault === 'head-open'),
    bit(state.fault === 'ribbon-out'),
    '0', // direct thermal
    '2', // print mode: tear off
    '6', // print width mode
    '0', // label waiting
    String(Math.min(state.formatsInBuffer, 99_999_999)).padStart(8, '0'),
    '1',
    '000',
  ].join(',');
  return frame(one) + frame(two) + frame('1234,0');
}

export function hostQueryErrorsAnswer(state: VirtualPrinterState): string {
  let errors = 0;
  if (state.fault === 'paper-out') errors |= 0x1;
  if (state.fault === 'ribbon-out') errors |= 0x2;
  if (state.fault === 'head-open') errors |= 0x4;
  const hex = (n: number) => n.toString(16).toUpperCase().padStart(8, '0');
  return (
    `${STX}\r\n` +
    '  PRINTER STATUS\r\n' +
    `   ERRORS:         ${errors ? 1 : 0} 00000000 ${hex(errors)}\r\n` +
    '   WARNINGS:       0 00000000 00000000\r\n' +
    `${ETX}\r\n`
  );
}
