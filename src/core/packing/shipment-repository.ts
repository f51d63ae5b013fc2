import { inTransaction, type Db } from '../storage/database.js';
import type { Clock, StationScope } from '../storage/scope.js';
import { systemClock } from '../storage/scope.js';
import type { PlatformShipment } from './platform-port.js';
import type {
  Failure,
  LabelPurchase,
  PurchaseState,
  RateSelection,
  Shipment,
  ShipmentState,
} from './types.js';

interface ShipmentRow {
  id: number;
  profile_id: string;
  environment: string;
  tenant_id: string;
  order_id: number;
  state: ShipmentState;
  shipment: string;
  rates: string | null;
  selection: string | null;
  failure: string | null;
  station_user: string | null;
  created_at: string;
  updated_at: string;
  return_of_label_id: number | null;
}

interface PurchaseRow {
  id: string;
  shipment_id: number;
  tenant_id: string;
  order_reference: string;
  state: PurchaseState;
  request: string;
  failure: string | null;
  confirmed_by: string | null;
  resolution: string | null;
  resolved_by: string | null;
  resolved_at: string | null;
  created_at: string;
  updated_at: string;
}

const json = (value: unknown) =>
  value === null || value === undefined ? null : JSON.stringify(value);
const parse = <T>(text: string | null): T | null =>
  text === null ? null : (JSON.parse(text) as T);

/**
 * Shipments, label purchases and their event history. Statements prepared once. A row and its
 * event are written in one transaction (`inTransaction`: one commit, never a state without
 * its event; a savepoint inside a caller's transaction).
 */
export class ShipmentRepository {
  private readonly s;

  constructor(
    readonly db: Db,
    private readonly clock: Clock = systemClock,
  ) {
    this.s = {
      insert: db.prepare(
        `INSERT INTO shipments (profile_id, environment, tenant_id, order_id, state, shipment, station_user, created_at, updated_at, return_of_label_id)
         VALUES (@profileId, @environment, @tenantId, @orderId, @state, @shipment, @stationUser, @now, @now, @returnOfLabelId)`,
      ),
      get: db.prepare<[number], ShipmentRow>(`SELECT * FROM shipments WHERE id = ?`),
      forOrder: db.prepare<[number], ShipmentRow>(
        `SELECT * FROM shipments WHERE order_id = ? ORDER BY id`,
      ),
      inState: db.prepare<[string, string, string], ShipmentRow>(
        `SELECT * FROM shipments WHERE profile_id = ? AND environment = ? AND state = ? ORDER BY id`,
      ),
      setState: db.prepare(`UPDATE shipments SET state = @state, updated_at = @now WHERE id = @id`),
      setRated: db.prepare(
        `UPDATE shipments SET state = 'rated', rates = @rates, selection = @selection, failure = NULL, updated_at = @now WHERE id = @id`,
      ),
      setSelection: db.prepare(
        `UPDATE shipments SET selection = @selection, updated_at = @now WHERE id = @id AND state = 'rated'`,
      ),
      setStationUser: db.prepare(
        `UPDATE shipments SET station_user = @stationUser, updated_at = @now WHERE id = @id`,
      ),
      setShipment: db.prepare(
        `UPDATE shipments SET shipment = @shipment, updated_at = @now WHERE id = @id`,
      ),
      ratedAt: db.prepare<[number], { at: string }>(
        `SELECT at FROM shipment_events WHERE shipment_id = ? AND kind = 'rated' ORDER BY id DESC LIMIT 1`,
      ),
      lastEvent: db.prepare<[number], { kind: string; at: string }>(
        `SELECT kind, at FROM shipment_events WHERE shipment_id = ? ORDER BY id DESC LIMIT 1`,
      ),
      setRates: db.prepare(`UPDATE shipments SET rates = @rates, updated_at = @now WHERE id = @id`),
      setFailed: db.prepare(
        `UPDATE shipments SET state = @state, failure = @failure, updated_at = @now WHERE id = @id`,
      ),
      insertPurchase: db.prepare(
        `INSERT INTO label_purchases (id, shipment_id, profile_id, environment, tenant_id, order_reference, state, request, confirmed_by, created_at, updated_at)
         VALUES (@id, @shipmentId, @profileId, @environment, @tenantId, @orderReference, 'purchasing', @request, @confirmedBy, @now, @now)`,
      ),
      getPurchase: db.prepare<[string], PurchaseRow>(`SELECT * FROM label_purchases WHERE id = ?`),
      purchasesForShipment: db.prepare<[number], PurchaseRow>(
        `SELECT * FROM label_purchases WHERE shipment_id = ? ORDER BY created_at, id`,
      ),
      packers: db.prepare<[string], { label_id: number; station_user: string | null }>(
        `SELECT l.id AS label_id, s.station_user FROM labels l
           JOIN label_purchases p ON p.id = l.purchase_id JOIN shipments s ON s.id = p.shipment_id
          WHERE l.id IN (SELECT value FROM json_each(?))`,
      ),
      purchasesForOrder: db.prepare<[number], PurchaseRow>(
        `SELECT p.* FROM label_purchases p JOIN shipments s ON s.id = p.shipment_id
         WHERE s.order_id = ? ORDER BY p.created_at, p.id`,
      ),
      purchasesInState: db.prepare<[string, string, string], PurchaseRow>(
        `SELECT * FROM label_purchases WHERE profile_id = ? AND environment = ? AND state = ? ORDER BY created_at, id`,
      ),
      setPurchase: db.prepare(
        `UPDATE label_purchases SET state = @state, failure = @failure, updated_at = @now WHERE id = @id`,
      ),
      resolvePurchase: db.prepare(
        `UPDATE label_purchases SET state = @state, resolution = @resolution, resolved_by = @resolvedBy,
           resolved_at = @now, updated_at = @now WHERE id = @id`,
      ),
      event: db.prepare(
        `INSERT INTO shipment_events (shipment_id, kind, detail, at) VALUES (?, ?, ?, ?)`,
      ),
      events: db.prepare<[number], { kind: string; detail: string | null; at: string }>(
        `SELECT kind, detail, at FROM shipment_events WHERE shipment_id = ? ORDER BY id`,
      ),
    };
  }

  private now(): string {
    return this.clock().toISOString();
  }

  create(
    scope: StationScope,
    input: {
      tenantId: string;
      orderId: number;
      state: 'ready' | 'queued';
      shipment: PlatformShipment;
      stationUser: string | null;
      /** A return label's shipment: the label it returns. */
      returnOfLabelId?: number | undefined;
    },
  ): Shipment {
    const now = this.now();
    const shipment = JSON.stringify(input.shipment);
    const id = inTransaction(this.db, () => {
      const inserted = Number(
        this.s.insert.run({
          ...input,
          returnOfLabelId: input.returnOfLabelId ?? null,
          shipment,
          profileId: scope.profileId,
          environment: scope.environment,
          now,
        }).lastInsertRowid,
      );
      this.s.event.run(inserted, 'created', json({ state: input.state }), now);
      return inserted;
    });
    // As get() would read it back (a scan's first step: no read of what was just written).
    return {
      id,
      profileId: scope.profileId,
      environment: scope.environment,
      tenantId: input.tenantId,
      orderId: input.orderId,
      state: input.state,
      shipment: JSON.parse(shipment) as PlatformShipment,
      rates: null,
      selection: null,
      failure: null,
      stationUser: input.stationUser,
      createdAt: now,
      updatedAt: now,
      ...(input.returnOfLabelId == null ? {} : { returnOfLabelId: input.returnOfLabelId }),
    };
  }

  get(id: number): Shipment | undefined {
    const row = this.s.get.get(id);
    return row ? toShipment(row) : undefined;
  }

  forOrder(orderId: number): Shipment[] {
    return this.s.forOrder.all(orderId).map(toShipment);
  }

  inState(scope: StationScope, state: ShipmentState): Shipment[] {
    return this.s.inState.all(scope.profileId, scope.environment, state).map(toShipment);
  }

  setState(id: number, state: ShipmentState, detail?: unknown): void {
    inTransaction(this.db, () => {
      this.s.setState.run({ id, state, now: this.now() });
      this.event(id, state, detail);
    });
  }

  /**
   * Returns when it was rated (the `rated` event's time, which ratedAt gives later); `now`:
   * the time the rates came, for a rating written moments later (PendingRating).
   */
  setRated(id: number, rates: unknown, selection: RateSelection, now = this.now()): string {
    inTransaction(this.db, () => {
      this.s.setRated.run({
        id,
        rates: JSON.stringify(rates),
        selection: JSON.stringify(selection),
        now,
      });
      this.s.event.run(id, 'rated', json({ reason: selection.reason }), now);
    });
    return now;
  }

  /** When the stored rates were asked for (the last `rated` event), or null if never. */
  ratedAt(id: number): string | null {
    return this.s.ratedAt.get(id)?.at ?? null;
  }

  /** The newest event of a shipment (what happened to it last). */
  lastEvent(id: number): { kind: string; at: string } | null {
    return this.s.lastEvent.get(id) ?? null;
  }

  /** The packer picked another of the stored rates: recorded with who and why. */
  setSelection(id: number, selection: RateSelection): void {
    inTransaction(this.db, () => {
      this.s.setSelection.run({ id, selection: JSON.stringify(selection), now: this.now() });
      this.event(id, 'rate-chosen', {
        by: selection.chosenBy ?? null,
        reason: selection.reason,
        carrierAccountId: selection.rate.carrierAccount.id,
        serviceLevel: selection.rate.serviceLevel,
      });
    });
  }

  /** A packer took over rates asked for in the background (pre-rating): recorded as theirs. */
  reuseRates(id: number, stationUser: string | null): void {
    inTransaction(this.db, () => {
      if (stationUser !== null) this.s.setStationUser.run({ id, stationUser, now: this.now() });
      this.event(id, 'rates-reused', { by: stationUser });
    });
  }

  /** New packages for a shipment that has not been bought yet (a queued one re-weighed). */
  setShipment(id: number, shipment: PlatformShipment): void {
    inTransaction(this.db, () => {
      this.s.setShipment.run({ id, shipment: JSON.stringify(shipment), now: this.now() });
      this.event(id, 'repacked', { packages: shipment.packages.map((p) => p.weightLbs) });
    });
  }

  setRates(id: number, rates: unknown): void {
    this.s.setRates.run({ id, rates: JSON.stringify(rates), now: this.now() });
  }

  setFailed(id: number, state: 'failed' | 'unknown', failure: Failure): void {
    inTransaction(this.db, () => {
      this.s.setFailed.run({ id, state, failure: JSON.stringify(failure), now: this.now() });
      this.event(id, state, failure);
    });
  }

  createPurchase(
    scope: StationScope,
    input: {
      id: string;
      shipmentId: number;
      tenantId: string;
      orderReference: string;
      request: unknown;
      confirmedBy: string | null;
    },
  ): void {
    this.s.insertPurchase.run({
      ...input,
      request: JSON.stringify(input.request),
      profileId: scope.profileId,
      environment: scope.environment,
      now: this.now(),
    });
  }

  purchase(id: string): LabelPurchase | undefined {
    const row = this.s.getPurchase.get(id);
    return row ? toPurchase(row) : undefined;
  }

  /** Who packed each of these labels (the shipment's station user), by label id. */
  packersOfLabels(labelIds: readonly number[]): Map<number, string | null> {
    return new Map(
      this.s.packers.all(JSON.stringify(labelIds)).map((r) => [r.label_id, r.station_user]),
    );
  }

  purchasesForOrder(orderId: number): LabelPurchase[] {
    return this.s.purchasesForOrder.all(orderId).map(toPurchase);
  }

  purchasesForShipment(shipmentId: number): LabelPurchase[] {
    return this.s.purchasesForShipment.all(shipmentId).map(toPurchase);
  }

  purchasesInState(scope: StationScope, state: PurchaseState): LabelPurchase[] {
    return this.s.purchasesInState.all(scope.profileId, scope.environment, state).map(toPurchase);
  }

  setPurchaseState(id: string, state: PurchaseState, failure: Failure | null = null): void {
    this.s.setPurchase.run({ id, state, failure: json(failure), now: this.now() });
  }

  resolvePurchase(id: string, state: PurchaseState, resolution: string, resolvedBy: string): void {
    this.s.resolvePurchase.run({ id, state, resolution, resolvedBy, now: this.now() });
  }

  event(shipmentId: number, kind: string, detail?: unknown): void {
    this.s.event.run(shipmentId, kind, json(detail), this.now());
  }

  events(shipmentId: number): { kind: string; detail: unknown; at: string }[] {
    return this.s.events.all(shipmentId).map((e) => ({ ...e, detail: parse(e.detail) }));
  }
}

function toShipment(row: ShipmentRow): Shipment {
  return {
    id: row.id,
    profileId: row.profile_id,
    environment: row.environment,
    tenantId: row.tenant_id,
    orderId: row.order_id,
    state: row.state,
    shipment: JSON.parse(row.shipment) as PlatformShipment,
    rates: parse(row.rates),
    selection: parse(row.selection),
    failure: parse(row.failure),
    stationUser: row.station_user,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.return_of_label_id === null ? {} : { returnOfLabelId: row.return_of_label_id }),
  };
}

function toPurchase(row: PurchaseRow): LabelPurchase {
  return {
    id: row.id,
    shipmentId: row.shipment_id,
    tenantId: row.tenant_id,
    orderReference: row.order_reference,
    state: row.state,
    request: JSON.parse(row.request),
    failure: parse(row.failure),
    confirmedBy: row.confirmed_by,
    resolution: row.resolution,
    resolvedBy: row.resolved_by,
    resolvedAt: row.resolved_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
