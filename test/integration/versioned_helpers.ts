/**
 * Helpers shared by the versioned-collection integration tests (TTL.md "Versioned collections"):
 * the seed's instants, moving the manual clock to one of them, and the version commands with
 * their Int64 timestamps kept as `Long`.
 */
import { Long, type Db, type Document } from 'mongodb';
import type { Harness } from './harness.js';

/** Version 1468944000000: 2016-07-20 00:00:00 UTC+8 (seed 002). */
export const V_2016_07_20 = 1468944000000;
/** 2016-07-21 00:00:00 UTC+8: the seed's "now" in both examples. */
export const T_2016_07_21 = 1469030400000;
/** 2016-07-22 00:00:00 UTC+8: the seed's exclusive upper bound of the write range. */
export const T_2016_07_22 = 1469116800000;
/** One day in ms. */
export const DAY_MS = 86_400_000;

/** Sets the manual clock of `h` to `ms` exactly (the embedding API moves it both ways). */
export function setClock(h: Harness, ms: number): void {
  h.server.clock.advance(ms - h.server.clock.now());
}

/** Creates a versioned collection with `options` (empty: Tablestore's defaults). */
export async function createVersioned(db: Db, name: string, options: Document = {}): Promise<void> {
  await db.command({ create: name, versioned: options });
}

/** `putRow`; the reply keeps Int64 as `Long`. */
export async function putRow(db: Db, coll: string, row: Document, timestamps?: Document): Promise<Document> {
  return db.command({ putRow: coll, row, ...(timestamps ? { timestamps } : {}) }, { promoteLongs: false });
}

/** `getRow`'s `row`; timestamps stay `Long`. */
export async function getRow(db: Db, coll: string, id: unknown, options: Document = {}): Promise<Document | null> {
  const reply = await db.command({ getRow: coll, _id: id, ...options }, { promoteLongs: false });
  return reply.row as Document | null;
}

/** One version as getRow returns it. */
export function version(value: unknown, ms: number): Document {
  return { value, timestamp: Long.fromNumber(ms) };
}
