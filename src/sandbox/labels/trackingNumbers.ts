import { randomInt } from 'node:crypto';

/**
 * Tracking numbers that look like the carrier's and never repeat: a per-sandbox random run id
 * (so a restarted demo sandbox does not reissue numbers a station has cached) plus a sequence.
 */
export class TrackingNumbers {
  private readonly run = String(randomInt(0, 10_000)).padStart(4, '0');
  private seq = 0;

  next(carrier: string): string {
    const n = ++this.seq;
    const pad = (width: number) => String(n).padStart(width, '0');
    switch (carrier) {
      case 'UPS':
        return `1ZSBX${this.run}${pad(9)}`;
      case 'FEDEX':
        return `7${this.run}${pad(7)}`;
      case 'USPS':
        return `9400${this.run}${pad(14)}`;
      case 'DHL':
        return `3${this.run}${pad(5)}`;
      default:
        return `${carrier.slice(0, 4)}SBX${this.run}${pad(8)}`;
    }
  }
}
