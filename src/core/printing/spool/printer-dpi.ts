import type { Printer, PrinterDpi } from '../types.js';

/**
 * What each printer said its print-head resolution is (null: it does not say), for the label
 * checks: asked before a printer's first job, ahead of a label while the platform answers it
 * (`askAhead`), and again once the printer was away or a test page asks (`forget`): a 203-dpi
 * printer swapped for a 300-dpi one at the same address is then said at its next label.
 */
export class PrinterDpis {
  private readonly said = new Map<string, PrinterDpi | null>();
  /** Resolutions being asked ahead of a label, by printer. */
  private readonly asking = new Map<string, Promise<void>>();

  known(printerId: string): boolean {
    return this.said.has(printerId);
  }

  get(printerId: string): PrinterDpi | null {
    return this.said.get(printerId) ?? null;
  }

  remember(printerId: string, dpi: number | null): void {
    this.said.set(printerId, dpi === 203 || dpi === 300 || dpi === 600 ? dpi : null);
  }

  forget(printerId: string): void {
    this.said.delete(printerId);
  }

  /** Asks the printer now unless its word is known or already being asked; resolves with it. */
  askAhead(printerId: string, driver: Printer): Promise<void> {
    if (!driver.readDpi || this.said.has(printerId)) return Promise.resolve();
    const asking =
      this.asking.get(printerId) ??
      driver
        .readDpi()
        .catch(() => null)
        .then((dpi) => {
          if (!this.said.has(printerId)) this.remember(printerId, dpi);
        })
        .finally(() => this.asking.delete(printerId));
    this.asking.set(printerId, asking);
    return asking;
  }

  /** Waits (at most `ms`) for an answer askAhead is waiting for; at once when none is. */
  async answered(printerId: string, ms: number): Promise<void> {
    const asking = this.asking.get(printerId);
    if (!asking) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      asking,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms);
      }),
    ]);
    clearTimeout(timer);
  }
}
