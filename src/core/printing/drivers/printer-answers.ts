/**
 * What each network printer (by host:port) has shown it answers, shared by every driver that
 * talks to it: the spool's, the header's status probe, Settings. A printer that let `~HQES` go
 * unanswered once is not asked again (each ask costs the full wait), until its address changes
 * or the station restarts.
 */
export class PrinterAnswers {
  private readonly hqes = new Map<string, boolean>();
  answersHqes(address: string): boolean | undefined {
    return this.hqes.get(address);
  }
  learnedHqes(address: string, answers: boolean): void {
    this.hqes.set(address, answers);
  }
}
export const stationPrinterAnswers = new PrinterAnswers();
