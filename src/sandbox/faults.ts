import { type Socket } from 'node:net';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiError, errorCodeForStatus } from './errors.js';

export const faultSchema = z.object({
  method: z.string().min(1).default('*'),
  path: z.string().startsWith('/', 'must start with /'),
  kind: z.enum(['status', 'delay', 'reset', 'hang']),
  status: z.number().int().min(400).max(599).optional(),
  delayMs: z.number().int().min(0).max(600_000).optional(),
  /** With a `status` fault: a `Retry-After` header of this many seconds on the answer. */
  retryAfterSeconds: z.number().int().min(0).max(86_400).optional(),
  times: z.number().int().min(1).optional(),
  /** Process the request first, then fault the response: a bought label whose answer is lost. */
  after: z.boolean().optional(),
});
export type FaultSpec = z.input<typeof faultSchema>;

export interface Fault {
  id: number;
  method: string;
  path: string;
  kind: 'status' | 'delay' | 'reset' | 'hang';
  status: number;
  delayMs: number;
  retryAfterSeconds: number | null;
  remaining: number | null;
  after: boolean;
  hits: number;
}

/** Injected faults, matched by method and path prefix on every route outside /sandbox. */
export class FaultInjector {
  private faults: Fault[] = [];
  private nextId = 1;
  private readonly hung = new Set<Socket>();
  private readonly sleepers = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  private closed = false;

  add(spec: FaultSpec): Fault {
    const parsed = faultSchema.parse(spec);
    const fault: Fault = {
      id: this.nextId++,
      method: parsed.method.toUpperCase(),
      path: parsed.path,
      kind: parsed.kind,
      status: parsed.status ?? 500,
      delayMs: parsed.delayMs ?? 1000,
      retryAfterSeconds: parsed.retryAfterSeconds ?? null,
      remaining: parsed.times ?? null,
      after: parsed.after ?? false,
      hits: 0,
    };
    this.faults.push(fault);
    return fault;
  }

  list(): Fault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  clear(): void {
    this.faults = [];
  }

  /** The first matching fault for this request, consuming one of its `times`. */
  take(method: string, path: string, after: boolean): Fault | undefined {
    if (this.faults.length === 0) return undefined;
    const upper = method.toUpperCase();
    const fault = this.faults.find(
      (f) =>
        f.after === after && (f.method === '*' || f.method === upper) && path.startsWith(f.path),
    );
    if (!fault) return undefined;
    fault.hits++;
    if (fault.remaining !== null) {
      fault.remaining--;
      if (fault.remaining <= 0) this.faults = this.faults.filter((f) => f !== fault);
    }
    return fault;
  }

  /** Real-time sleep that close() cuts short. */
  sleep(ms: number): Promise<void> {
    if (ms <= 0 || this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          this.sleepers.delete(entry);
          resolve();
        }, ms),
        resolve,
      };
      this.sleepers.add(entry);
    });
  }

  /**
   * Applies a fault. `status` throws the envelope; `delay` sleeps and lets the request proceed;
   * `reset` destroys the socket; `hang` keeps the socket open without an answer until the client
   * gives up or the sandbox closes. Returns true when the request must not be answered.
   */
  async apply(fault: Fault, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    switch (fault.kind) {
      case 'status':
        if (fault.retryAfterSeconds !== null)
          void reply.header('retry-after', String(fault.retryAfterSeconds));
        throw new ApiError(
          fault.status,
          errorCodeForStatus(fault.status),
          `Injected fault: ${fault.status} on ${fault.method} ${fault.path}`,
        );
      case 'delay':
        await this.sleep(fault.delayMs);
        return false;
      case 'reset':
        reply.hijack();
        request.raw.socket.destroy();
        return true;
      case 'hang':
        reply.hijack();
        void this.holdOpen(request.raw.socket);
        return true;
      default: {
        const never: never = fault.kind;
        return never;
      }
    }
  }

  /** Keeps a socket unanswered until the client gives up or the sandbox closes. */
  holdOpen(socket: Socket): Promise<void> {
    if (this.closed || socket.destroyed) return Promise.resolve();
    this.hung.add(socket);
    return new Promise((resolve) => {
      socket.once('close', () => {
        this.hung.delete(socket);
        resolve();
      });
    });
  }

  close(): void {
    this.closed = true;
    this.faults = [];
    for (const socket of this.hung) socket.destroy();
    this.hung.clear();
    for (const sleeper of this.sleepers) {
      clearTimeout(sleeper.timer);
      sleeper.resolve();
    }
    this.sleepers.clear();
  }
}
