import { type SandboxClock } from '../clock.js';
import { type SandboxState } from '../state.js';
import { type Tracker } from '../trackers.js';
import { type WorldOptions } from '../world.js';

export class WebhookService {
  constructor(
    readonly state: SandboxState,
    readonly clock: SandboxClock,
    readonly options: WorldOptions,
  ) {}
  trackingUpdated(_tracker: Tracker): void {}
  deliveries(): unknown[] {
    return [];
  }
  outbox(): unknown[] {
    return [];
  }
  close(): void {}
}
