/**
 * The server's `topologyVersion` (mongod's `TopologyVersion`: a process id chosen at start and a
 * counter bumped on every change a monitoring client must hear of) and the awaitable hello's
 * waiters (the streaming protocol of the server discovery and monitoring spec: a client sends
 * its last `topologyVersion` with `maxAwaitTimeMS`, and the server answers when the topology
 * changes or the time is up).
 *
 * The wait is on real time, not the server's clock: it paces a driver's monitor, which runs on
 * real time whatever clock the data uses.
 */
import { Long, ObjectId, type Document } from '../bson/library.js';

/** One waiting hello: woken by a change or its time-out, whichever comes first. */
interface Waiter {
  readonly wake: () => void;
}

/** The topology version of this process and the hellos waiting on it. */
export class TopologyVersion {
  /** Fixed for the life of the server (mongod: for the life of the process). */
  readonly processId = new ObjectId();
  private counterValue = 0n;
  private readonly waiters = new Set<Waiter>();

  get counter(): bigint {
    return this.counterValue;
  }

  /** `{ processId, counter }` as hello reports it. */
  toDocument(): Document {
    return { processId: this.processId, counter: Long.fromBigInt(this.counterValue) };
  }

  /** A change monitoring clients must hear of: bumps the counter and answers every waiting hello. */
  changed(): void {
    this.counterValue++;
    for (const waiter of [...this.waiters]) waiter.wake();
  }

  /**
   * Resolves after `ms` or at the next change, whichever is first; `cancel` (a closed connection)
   * resolves it at once. The timer does not keep the process alive.
   */
  wait(ms: number): { done: Promise<void>; cancel: () => void } {
    let wake!: () => void;
    const done = new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const waiter: Waiter = {
        wake: () => {
          if (timer !== undefined) clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve();
        },
      };
      wake = waiter.wake;
      this.waiters.add(waiter);
      timer = setTimeout(waiter.wake, ms);
      timer.unref();
    });
    return { done, cancel: wake };
  }

  /** Hellos waiting now (for tests and serverStatus). */
  get waiting(): number {
    return this.waiters.size;
  }
}
