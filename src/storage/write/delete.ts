/**
 * The one delete executor (WRITE_PATH.md): the `delete` command's statements, bulkWrite's
 * delete ops and findAndModify's `remove` all remove their records here, each statement in one
 * write unit. The statement's filter, with the command's `let` variables and `$$NOW`, is
 * compiled by the caller once (`WriteSelection`), so every path treats `let` alike.
 */
import type { Collection } from '../collection.js';
import type { StoredDocument } from '../record.js';
import { selectRecords, type WriteSelection } from './_internal.js';

/** The outcome of one delete statement. */
export interface DeleteOutcome {
  /** Documents removed. */
  readonly n: number;
}

/**
 * Removes the records of `coll` that `selection` picks (all, or the first with `limit: 1`) in
 * one write unit. A collection that does not exist deletes nothing. The plan is chosen before
 * anything is removed; the matches are gathered first, so that removing never disturbs the scan.
 */
export function executeDelete(coll: Collection | undefined, selection: WriteSelection, now: () => number): DeleteOutcome {
  if (!coll) return { n: 0 };
  const records = [...selectRecords(coll, selection, now)];
  let n = 0;
  coll.writes.run(() => {
    for (const rec of records) if (coll.remove(rec)) n++;
  });
  return { n };
}

/** Removes one record `rec` of `coll` (findAndModify's `remove`), in a write unit; false when it is no longer held. */
export function deleteRecord(coll: Collection, rec: StoredDocument): boolean {
  return coll.writes.run(() => coll.remove(rec));
}
