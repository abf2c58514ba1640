/**
 * Cancellable calls of a worker by call id (an AbortSignal does not cross the worker boundary):
 * the page sends an id with each call and `cancel(id)` to abort it; the outcome carries a typed
 * error (protocol/outcome.ts). Shared by the engine and files workers.
 */
import { toWireError, type Outcome } from './protocol/outcome';

/** The calls running in a worker, by id. */
export class CallRegistry {
  private readonly running = new Map<number, AbortController>();

  /** Runs `work` under id `id` with a signal that {@link CallRegistry.cancel} aborts; never rejects. */
  async run<T>(id: number, work: (signal: AbortSignal) => Promise<T>): Promise<Outcome<T>> {
    const ac = new AbortController();
    this.running.set(id, ac);
    try {
      return { ok: true, value: await work(ac.signal) };
    } catch (e) {
      return { ok: false, error: toWireError(e, ac.signal.aborted) };
    } finally {
      this.running.delete(id);
    }
  }

  /** Aborts call `id` (no-op when it has finished). */
  cancel(id: number): void {
    this.running.get(id)?.abort();
  }
}
