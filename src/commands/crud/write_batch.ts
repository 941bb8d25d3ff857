/**
 * What insert, update and delete share: batch size checks, per-statement write errors, ordered
 * stop-at-first-error, and the reply's `writeErrors`.
 */
import type { Document } from '../../bson/library.js';
import { CommandError, toCommandError } from '../../errors/command_error.js';

/** Most write operations one batch may carry (`maxWriteBatchSize` in hello). */
export const MAX_WRITE_BATCH_SIZE = 100_000;

/** Throws 16 InvalidLength unless 1 ≤ n ≤ 100,000. */
export function checkBatchSize(n: number): void {
  if (n < 1 || n > MAX_WRITE_BATCH_SIZE) {
    throw new CommandError('InvalidLength', `Write batch sizes must be between 1 and ${MAX_WRITE_BATCH_SIZE}. Got ${n} operations.`);
  }
}

/** Runs `statement` for each item; collects write errors; stops at the first when ordered. */
export function runBatch<T>(items: readonly T[], ordered: boolean, statement: (item: T, index: number) => void): Document[] {
  const writeErrors: Document[] = [];
  for (let i = 0; i < items.length; i++) {
    try {
      statement(items[i]!, i);
    } catch (err) {
      const error = toCommandError(err);
      if (error.code === 1) throw err;
      writeErrors.push(error.toWriteError(i));
      if (ordered) break;
    }
  }
  return writeErrors;
}
