/**
 * The request-charge model (`docs/cosmos_request_units.md`): what one request costs in request
 * units (RU), from what it did: the documents it read (examined and returned, with their sizes)
 * and the documents it wrote (with their sizes and the indexes each write updates). Microsoft
 * describes the charge as proportional to those (a 1 KB point read is 1 RU, a 1 KB write about
 * 5 to 6 RU, each index updated adds to it, a query pays for what it scans); this is one fixed,
 * documented instance of that description, so that a test can state exact figures.
 */

/** RU per started KB of each document a request returns (a 1 KB point read: 1 RU). */
export const READ_RU_PER_KB = 1;
/** RU per document a request examined but did not return (the scan part of a query). */
export const SCAN_RU_PER_DOCUMENT = 0.1;
/** RU per started KB of each document written (inserted, updated, replaced or deleted). */
export const WRITE_RU_PER_KB = 5;
/** RU per index entry a write maintains: `_id` and each secondary index of the collection. */
export const INDEX_RU_PER_WRITE = 0.5;
/** The least a data request costs, even one that reads and writes nothing. */
export const MIN_REQUEST_RU = 1;

/** One document written by a request. */
export interface WrittenDocument {
  /** Its BSON size (the document after an insert or update, before a delete). */
  readonly bytes: number;
  /** The indexes the write maintained: 1 (`_id`) + the collection's secondary indexes. */
  readonly indexes: number;
}

/** What a request did, as the charge model sees it. */
export interface RequestUsage {
  /** Documents the query engine examined (COLLSCAN and FETCH stages). */
  docsExamined: number;
  /** The BSON sizes of the documents the reply returned. */
  readonly returnedBytes: number[];
  readonly written: WrittenDocument[];
}

/** A fresh, empty usage. */
export function emptyUsage(): RequestUsage {
  return { docsExamined: 0, returnedBytes: [], written: [] };
}

/** Started kilobytes of `bytes` (at least 1). */
export function kilobytes(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / 1024));
}

/** RU rounded to 2 decimals (the charge Cosmos reports has that precision). */
export function roundCharge(ru: number): number {
  return Math.round(ru * 100) / 100;
}

/** The charge of writing one document (the model's write term). */
export function writeCharge(doc: WrittenDocument): number {
  return WRITE_RU_PER_KB * kilobytes(doc.bytes) + INDEX_RU_PER_WRITE * doc.indexes;
}

/**
 * The charge of a data request:
 *   Σ returned 1 RU × KB  +  0.1 RU × (examined − returned, if more)  +  Σ written (5 RU × KB + 0.5 RU × indexes),
 * rounded to 2 decimals, at least 1 RU.
 */
export function requestCharge(usage: RequestUsage): number {
  let ru = 0;
  for (const bytes of usage.returnedBytes) ru += READ_RU_PER_KB * kilobytes(bytes);
  ru += SCAN_RU_PER_DOCUMENT * Math.max(0, usage.docsExamined - usage.returnedBytes.length);
  for (const doc of usage.written) ru += writeCharge(doc);
  return Math.max(MIN_REQUEST_RU, roundCharge(ru));
}
