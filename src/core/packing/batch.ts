import { randomUUID } from 'node:crypto';
import { inTransaction, type Db } from '../storage/database.js';
import { systemClock, type Clock, type StationScope } from '../storage/scope.js';
import type { PackingWorkflow } from './packing-workflow.js';
import { packedAsAtPack, type BoxDimensions } from './pre-rating.js';
import { interruptedItem } from './batch-recover.js';
import type { ShipResult } from './types.js';
import { batchStatements } from './batch-statements.js';
import { BATCH_PRINT_LEAD } from '../printing/spool/spool-types.js';
import {
  batchItemOf,
  MAX_BATCH_ORDERS,
  printerWaitWords,
  settle,
  summarize,
  type BatchState,
  type BatchSummary,
} from './batch-items.js';

export {
  MAX_BATCH_ORDERS,
  type BatchItem,
  type BatchItemShown,
  type BatchItemState,
  type BatchState,
  type BatchSummary,
} from './batch-items.js';

/**
 * What a batch item marks on its order for the Orders view (migration 011): nothing, unless it
 * failed before a shipment existed.
 */
const unmarked = { orderVersion: null, lastShipmentId: null };

/** The longest the batch waits for word from the spool before it looks again by itself. */
const PRINT_NEWS_MS = 1000;
/** How long a batch waits for its printer (no fault) before its progress says why. */
export const PRINTER_WAIT_SAID_MS = 5000;

/**
 * Batch printing (issue 15.8): a shift lead picks orders; the station rates, buys and prints
 * them one after the other under one batchId, through the very purchase a packer's Buy & print
 * uses (PackingWorkflow.ship: the crash-safe LabelPurchaser, then the spool).
 *
 * Crash safety is the purchase's own, per label: each item is committed `working` before its
 * order is shipped. After a restart an item left `working` is settled from what the station
 * knows of its order: a label → bought; a purchase of unknown outcome → failed (Needs
 * attention); nothing → waiting again. Running the batch again ships each order through the
 * same workflow, which refuses an order that already has a label (`already-labelled`, never
 * bought twice) or an unknown purchase (`needs-attention`).
 */
export class BatchRunner {
  private readonly s;
  /** Batches whose loop runs in this process now. */
  private readonly running = new Map<string, Promise<BatchSummary>>();
  /** Batches paused because their labels wait at a printer with a fault: its words. */
  private readonly held = new Map<string, string>();
  /** Running batches waiting for a printer without a fault: why, in words (see printerCaughtUp). */
  private readonly waitingFor = new Map<string, string>();

  constructor(
    private readonly workflow: PackingWorkflow,
    private readonly db: Db,
    private readonly options: {
      clock?: Clock;
      /** Heard after every item and every change of state (the progress bar). */
      onProgress?: (summary: BatchSummary) => void;
      /** Box presets (Settings → Boxes): a box code is bought with its sides, as at Pack. */
      boxes?: () => readonly BoxDimensions[];
      /**
       * Why the batch must not buy on (a printer with a fault holds some of these labels, the
       * platform ids of labels it bought): the printer's words, or null to go on.
       */
      printHold?: (labelIds: readonly string[]) => string | null;
      /**
       * How many of these labels have not printed yet (queued or being sent): the batch buys
       * no label while BATCH_PRINT_LEAD of its own wait at the printer, so a fault is known
       * before it buys far past the label that met it, however fast the platform answers.
       */
      printsPending?: (labelIds: readonly string[]) => number;
      /** The name of the printer a label not printed yet waits for, or null. */
      printerOf?: (labelId: string) => string | null;
      /** Resolves at the spool's next word on a job or printer, or after `ms`. */
      printNews?: (ms: number) => Promise<void>;
      /** Before each order is bought: the site's newest version of it is taken (a correction). */
      beforeShip?: (orderId: number) => Promise<unknown>;
    } = {},
  ) {
    this.s = batchStatements(db);
  }

  private get scope(): StationScope {
    return this.workflow.scope;
  }
  private now(): string {
    return (this.options.clock ?? systemClock)().toISOString();
  }

  /** A new batch of these orders (in this order), `running` but not started: call run(). */
  create(input: {
    orderIds: readonly number[];
    description: string;
    createdBy: string | null;
  }): BatchSummary {
    const ids = [...new Set(input.orderIds)];
    if (ids.length === 0) throw new RangeError('a batch needs at least one order');
    if (ids.length > MAX_BATCH_ORDERS)
      throw new RangeError(
        `a batch holds at most ${MAX_BATCH_ORDERS} orders; ${ids.length} were picked`,
      );
    for (const id of ids) {
      const order = this.workflow.orders.get(id);
      if (
        !order ||
        order.profileId !== this.scope.profileId ||
        order.environment !== this.scope.environment
      )
        throw new RangeError(`order ${id} is not in this profile`);
    }
    // batchId as the platform sees it: short, readable on a shift lead's screen.
    const id = `b_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    const now = this.now();
    inTransaction(this.db, () => {
      this.s.insertBatch.run({
        id,
        ...this.scope,
        description: input.description,
        createdBy: input.createdBy,
        now,
      });
      ids.forEach((orderId, position) =>
        this.s.insertItem.run({ batchId: id, position, orderId, now }),
      );
    });
    return this.summary(id)!;
  }

  summary(id: string): BatchSummary | undefined {
    const row = this.s.batch.get(id, this.scope.profileId, this.scope.environment);
    if (!row) return undefined;
    return summarize(
      row,
      this.s.items.all(id).map(batchItemOf),
      row.state === 'paused' ? (this.held.get(id) ?? null) : null,
      row.state === 'running' ? (this.waitingFor.get(id) ?? null) : null,
    );
  }

  list(limit = 20): BatchSummary[] {
    return this.s.list
      .all(this.scope.profileId, this.scope.environment, limit)
      .map((r) => this.summary(r.id)!);
  }

  /**
   * Ships the batch's waiting orders one by one until none is left, or it is paused or
   * stopped (checked between labels: a label being bought is always finished). Returns the
   * summary; a second call while it runs returns the same promise.
   */
  run(id: string): Promise<BatchSummary> {
    const row = this.s.batch.get(id, this.scope.profileId, this.scope.environment);
    if (!row) return Promise.reject(new RangeError(`no batch ${id} in this profile`));
    if (row.state === 'stopped' || row.state === 'done') return Promise.resolve(this.summary(id)!);
    this.held.delete(id);
    if (row.state === 'paused') this.setState(id, 'running');
    // Resumed while the label in hand is still being bought: that loop simply goes on (it
    // leaves the map in the same step as it sees the batch is no longer running).
    const going = this.running.get(id);
    if (going) return going;
    const loop = this.loop(id);
    this.running.set(id, loop);
    return loop;
  }

  pause(id: string): BatchSummary | undefined {
    this.held.delete(id);
    return this.changeState(id, 'paused', ['running']);
  }

  /**
   * Batches paused for their printer (see printHold) go on by themselves once it has no fault:
   * called when a printer's status changes.
   */
  resumeHeld(): void {
    for (const id of [...this.held.keys()]) {
      const row = this.s.batch.get(id, this.scope.profileId, this.scope.environment);
      if (row?.state !== 'paused') this.held.delete(id);
      else if (!this.printHold(id)) void this.run(id).catch(() => {});
    }
  }

  /** The printer's words when labels this batch bought wait at a printer with a fault. */
  private printHold(id: string, labelIds = this.boughtLabels(id)): string | null {
    return labelIds.length ? (this.options.printHold?.(labelIds) ?? null) : null;
  }

  private boughtLabels(id: string): string[] {
    return this.s.items
      .all(id)
      .map(batchItemOf)
      .flatMap((i) => (i.state === 'bought' && i.platformLabelId ? [i.platformLabelId] : []));
  }

  /**
   * Waits, before the next label is bought, until fewer than BATCH_PRINT_LEAD of the batch's
   * labels wait at the printer: the printer's fault, if it has one, is known by then (its
   * words are returned). Gives up waiting when the batch is paused or stopped meanwhile. After
   * PRINTER_WAIT_SAID_MS its progress says why it waits (waitingForPrinter), until it goes on.
   */
  private async printerCaughtUp(id: string): Promise<string | null> {
    const { printsPending, printNews, printerOf } = this.options;
    const since = this.clockMs();
    try {
      for (;;) {
        const labelIds = this.boughtLabels(id);
        const hold = this.printHold(id, labelIds);
        if (hold || !printsPending || !printNews) return hold;
        if (printsPending(labelIds) < BATCH_PRINT_LEAD) return null;
        if (this.s.batch.get(id, ...this.scopeKey())?.state !== 'running') return null;
        const first = labelIds.find((l) => printerOf?.(l));
        if (first && !this.waitingFor.has(id) && this.clockMs() - since >= PRINTER_WAIT_SAID_MS) {
          const items = this.s.items.all(id).map(batchItemOf);
          this.waitingFor.set(
            id,
            printerWaitWords(items, first, printerOf!(first)!, BATCH_PRINT_LEAD),
          );
          this.options.onProgress?.(this.summary(id)!);
        }
        await printNews(PRINT_NEWS_MS);
      }
    } finally {
      if (this.waitingFor.delete(id)) this.options.onProgress?.(this.summary(id)!);
    }
  }

  private clockMs(): number {
    return (this.options.clock ?? systemClock)().getTime();
  }

  private scopeKey(): [string, string] {
    return [this.scope.profileId, this.scope.environment];
  }

  /**
   * The station is closing this profile: every running batch pauses after the label in hand,
   * and this waits for those labels (bought and printed, or settled as they stand).
   */
  async pauseRunning(): Promise<void> {
    for (const batch of this.s.inState.all(this.scope.profileId, this.scope.environment, 'running'))
      this.setState(batch.id, 'paused');
    await Promise.allSettled([...this.running.values()]);
  }

  /** Stops for good: the waiting orders stay as they are (open), nothing more is bought. */
  stop(id: string): BatchSummary | undefined {
    this.held.delete(id);
    return this.changeState(id, 'stopped', ['running', 'paused']);
  }

  /** Whether this process is running the batch's loop now. */
  isRunning(id: string): boolean {
    return this.running.has(id);
  }

  /**
   * After a restart: settles items left `working` (see the class comment) and pauses batches
   * that were running, so a person decides to go on. Call once at start-up, after the
   * workflow's recover().
   */
  recover(): number {
    let settled = 0;
    // A batch paused while its label was in hand (the station was closing) may have one too.
    for (const state of ['running', 'paused'] as const)
      for (const batch of this.s.inState.all(this.scope.profileId, this.scope.environment, state)) {
        for (const item of this.s.working.all(batch.id)) {
          this.settleInterrupted(batch.id, item.position, item.order_id);
          settled++;
        }
        if (state === 'running') this.setState(batch.id, 'paused');
      }
    return settled;
  }

  private settleInterrupted(batchId: string, position: number, orderId: number): void {
    this.s.setItem.run({
      ...unmarked,
      batchId,
      position,
      shipmentId: null,
      now: this.now(),
      ...interruptedItem(this.workflow, orderId),
    });
  }

  private changeState(id: string, state: BatchState, from: BatchState[]): BatchSummary | undefined {
    const row = this.s.batch.get(id, this.scope.profileId, this.scope.environment);
    if (!row) return undefined;
    if (from.includes(row.state)) this.setState(id, state);
    return this.summary(id);
  }

  private setState(id: string, state: BatchState): void {
    this.s.setState.run({ id, state, now: this.now() });
    this.options.onProgress?.(this.summary(id)!);
  }

  private async loop(id: string): Promise<BatchSummary> {
    try {
      return await this.steps(id);
    } catch (e) {
      this.running.delete(id);
      throw e;
    }
  }

  private async steps(id: string): Promise<BatchSummary> {
    for (;;) {
      const row = this.s.batch.get(id, this.scope.profileId, this.scope.environment)!;
      if (row.state !== 'running') {
        this.running.delete(id);
        return this.summary(id)!;
      }
      const next = this.s.next.get(id);
      if (!next) {
        this.running.delete(id);
        this.setState(id, 'done');
        return this.summary(id)!;
      }
      // Labels it bought wait at a printer with a fault (out of paper…): no more are bought
      // into it; the batch goes on by itself once the printer prints again (resumeHeld).
      const hold = await this.printerCaughtUp(id);
      if (hold) {
        this.held.set(id, hold);
        this.running.delete(id);
        this.setState(id, 'paused');
        return this.summary(id)!;
      }
      // Paused or stopped while it waited for the printer: seen at the top.
      if (this.s.batch.get(id, ...this.scopeKey())!.state !== 'running') continue;
      const at = { batchId: id, position: next.position, now: this.now() };
      // The order as the batch tries it: a re-import meanwhile is a newer order than this try.
      const orderVersion = this.workflow.orders.get(next.order_id)?.updatedAt ?? null;
      this.s.setItem.run({
        ...at,
        ...unmarked,
        state: 'working',
        shipmentId: null,
        labelId: null,
        costCents: null,
        failure: null,
      });
      this.options.onProgress?.(this.summary(id)!);
      let result: ShipResult;
      try {
        result = await this.shipOne(id, next.order_id, row.created_by);
      } catch (e) {
        result = {
          outcome: 'invalid',
          failure: { code: 'internal', message: e instanceof Error ? e.message : String(e) },
        };
      }
      const settled = settle(result);
      // Failed before a shipment existed (no weight, customs data missing): the Orders view
      // lists the order as failed until a re-import or a newer shipment puts it right (see
      // migration 011). Written with the item's state, in one statement: crash-safe as it is.
      const noShipment = settled.state === 'failed' && settled.shipmentId === null;
      this.s.setItem.run({
        ...at,
        now: this.now(),
        ...settled,
        orderVersion: noShipment ? orderVersion : null,
        lastShipmentId: noShipment ? this.s.lastShipment.get(next.order_id)!.id : null,
      });
      // The platform is away: the order waits in the offline queue; the batch waits for a person.
      if (result.outcome === 'queued') this.setState(id, 'paused');
      else this.options.onProgress?.(this.summary(id)!);
    }
  }

  private async shipOne(
    batchId: string,
    orderId: number,
    lead: string | null,
  ): Promise<ShipResult> {
    const { workflow } = this;
    await this.options.beforeShip?.(orderId);
    const order = workflow.orders.get(orderId)!;
    // The shift lead who started the batch vouches for its orders (recorded per order).
    if (workflow.profile.requireItemVerification && !workflow.verification.state(order).verified)
      workflow.verification.override(order, lead ?? 'shift lead', `batch ${batchId}`);
    // The packages as Pack fills them in (a box code's sides), so it pays what Pack shows.
    const packages = packedAsAtPack(order, this.options.boxes?.() ?? []);
    return workflow.ship(orderId, { stationUser: lead ?? undefined, batchId, packages });
  }
}
