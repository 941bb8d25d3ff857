/**
 * Helpers shared by the TTL integration tests: the test clock and reaper over the wire, raw
 * command replies with their BSON types kept, and serverStatus' TTL metrics.
 */
import type { Db, Document, MongoClient } from 'mongodb';

/** Moves the server clock forward by `seconds` (`mayflyAdvanceClock`). */
export async function advance(client: MongoClient, seconds: number): Promise<Document> {
  return client.db('admin').command({ mayflyAdvanceClock: seconds });
}

/** Runs one reaper pass (`mayflyRunTtlPass`); the reply keeps Int64 as `Long`. */
export async function runPass(client: MongoClient): Promise<Document> {
  return client.db('admin').command({ mayflyRunTtlPass: 1 }, { promoteLongs: false });
}

/** `serverStatus().metrics.ttl`, Int64 kept as `Long`. */
export async function ttlMetrics(client: MongoClient): Promise<Document> {
  const status = await client.db('admin').command({ serverStatus: 1 }, { promoteLongs: false });
  return status.metrics.ttl as Document;
}

/** A command's reply with every BSON type kept (Int32, Int64 and Double as wrappers). */
export async function rawCommand(db: Db, command: Document): Promise<Document> {
  return db.command(command, { promoteValues: false, promoteLongs: false });
}

/** The index specs of `collection`, BSON types kept. */
export async function rawIndexes(db: Db, collection: string): Promise<Document[]> {
  const reply = await rawCommand(db, { listIndexes: collection });
  return reply.cursor.firstBatch as Document[];
}

/** The `_id`s `collection` returns for `find({})`, in natural order. */
export async function ids(db: Db, collection: string): Promise<unknown[]> {
  const docs = await db.collection(collection).find({}).toArray();
  return docs.map((d) => d._id);
}

/** Resolves after `ms` (never more than a second in these tests). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.min(ms, 1000)));
}
