import type { StateCreator } from 'zustand';
import type { AppState } from './index';

export type Slice<T> = StateCreator<AppState, [], [], T>;
