import { create } from 'zustand';
import { createNavSlice, type NavSlice } from './nav';
import { createStatusSlice, type StatusSlice } from './status';
import { createPackSlice, type PackSlice } from './pack';
import { createPackRatesSlice, type PackRatesSlice } from './pack-rates';
import {
  createAttentionSlice,
  createCarriersSlice,
  createHistorySlice,
  createQueueSlice,
  createTrackingSlice,
  type AttentionSlice,
  type CarriersSlice,
  type HistorySlice,
  type QueueSlice,
  type TrackingSlice,
} from './lists';
import { createSettingsSlice, type SettingsSlice } from './settings';
import { createFloorSlice, type FloorSlice } from './floor';

/** One store, one slice per feature (zustand's slices pattern). */
export type AppState = NavSlice &
  StatusSlice &
  PackSlice &
  PackRatesSlice &
  AttentionSlice &
  QueueSlice &
  HistorySlice &
  TrackingSlice &
  CarriersSlice &
  SettingsSlice &
  FloorSlice;

export const useStation = create<AppState>()((...a) => ({
  ...createNavSlice(...a),
  ...createStatusSlice(...a),
  ...createPackSlice(...a),
  ...createPackRatesSlice(...a),
  ...createAttentionSlice(...a),
  ...createQueueSlice(...a),
  ...createHistorySlice(...a),
  ...createTrackingSlice(...a),
  ...createCarriersSlice(...a),
  ...createSettingsSlice(...a),
  ...createFloorSlice(...a),
}));
