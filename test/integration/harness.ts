/**
 * Integration-test harness: an in-process Mayfly server on port 0 and an official-driver client.
 *
 *   const h = await startHarness({ compat: 'mongodb', clock: 'manual' });
 *   await h.db.collection('c').insertOne({ a: 1 });
 *   await h.close();
 */
import {
  MongoClient,
  type ClientBulkWriteModel,
  type ClientBulkWriteOptions,
  type ClientBulkWriteResult,
  type Collection,
  type CollectionOptions,
  type Db,
  type DbOptions,
  type Document,
  type MongoClientOptions,
} from 'mongodb';
import { MayflyServer, type MayflyServerOptions } from '../../src/index.js';

/**
 * Any value a test stores as `_id`: numbers, strings, booleans, `null`, documents, and every BSON
 * wrapper (ObjectId, Long, Date, ...: objects, so `Document`). Not `unknown` or `any`: the
 * driver's `InferIdType` turns those back into `ObjectId`.
 */
export type TestId = Document | number | string | boolean | null;

/**
 * The schema of the tests' collections: `Document` with an `_id` of any kind. The driver types a
 * plain `Collection<Document>`'s `_id` as `ObjectId`, which rules out the `{ _id: 1 }` that the
 * tests insert and filter on everywhere.
 */
export type TestDocument = { _id?: TestId; [field: string]: any };

/**
 * The harness's database: a `Db` whose `collection(name)` is a `Collection<TestDocument>` unless
 * a schema is given (`collection<{ _id: string }>(name)`). Only the type differs from `Db`.
 */
export interface TestDb extends Db {
  collection<TSchema extends Document = TestDocument>(name: string, options?: CollectionOptions): Collection<TSchema>;
}

/**
 * The harness's client: a `MongoClient` whose databases are `TestDb`s and whose `bulkWrite`
 * takes `TestDocument`s in every namespace unless a schema map is given
 * (`bulkWrite<{ 'db.c': { _id: string } }>(models)`). Only the type differs. (An overload, not
 * a default: the driver infers the schema map from the models, so a default would not apply.)
 */
export interface TestClient extends MongoClient {
  db(dbName?: string, options?: DbOptions): TestDb;
  bulkWrite(models: ReadonlyArray<ClientBulkWriteModel<Record<string, TestDocument>>>, options?: ClientBulkWriteOptions): Promise<ClientBulkWriteResult>;
  bulkWrite<SchemaMap extends Record<string, Document>>(models: ReadonlyArray<ClientBulkWriteModel<SchemaMap>>, options?: ClientBulkWriteOptions): Promise<ClientBulkWriteResult>;
}

/** A server, a connected client and a fresh database. */
export interface Harness {
  server: MayflyServer;
  client: TestClient;
  db: TestDb;
  close(): Promise<void>;
}

let dbCounter = 0;

/** Starts a server and connects a client to it. */
export async function startHarness(options: MayflyServerOptions = {}, clientOptions: MongoClientOptions = {}): Promise<Harness> {
  const server = await MayflyServer.create(options);
  const client: TestClient = new MongoClient(server.getUri(), { serverSelectionTimeoutMS: 5000, ...clientOptions });
  await client.connect();
  const db: TestDb = client.db(`test_${process.pid}_${++dbCounter}`);
  return {
    server,
    client,
    db,
    async close() {
      await client.close();
      await server.stop();
    },
  };
}

/** Runs `fn` and returns the error it throws (fails the test when it does not throw). */
export async function errorOf(fn: () => Promise<unknown>): Promise<{ code?: number; codeName?: string; errmsg?: string; message: string; [k: string]: unknown }> {
  try {
    await fn();
  } catch (err) {
    const e = err as { code?: number; codeName?: string; errmsg?: string; message: string; errorResponse?: Record<string, unknown> };
    return { ...(e.errorResponse ?? {}), code: e.code, codeName: e.codeName, errmsg: e.errmsg ?? e.message, message: e.message };
  }
  throw new Error('expected an error, got success');
}

/** Drops collection `name` of `db` (if any) and inserts `docs` into it afresh. */
export async function seed(db: Db, name: string, docs: Array<Record<string, unknown>>): Promise<void> {
  await db.collection(name).drop().catch(() => undefined);
  if (docs.length > 0) await db.collection(name).insertMany(docs);
}

/** Makes every reading of `h`'s server clock take `stepMs` of (manual) time while `fn` runs. */
export async function withClockStep<T>(h: Harness, stepMs: number, fn: () => Promise<T>): Promise<T> {
  const clock = h.server.clock;
  const original = clock.now.bind(clock);
  let extra = 0;
  clock.now = () => original() + (extra += stepMs);
  try {
    return await fn();
  } finally {
    clock.now = original;
  }
}
