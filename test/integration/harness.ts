/**
 * Integration-test harness: an in-process Mayfly server on port 0 and an official-driver client.
 *
 *   const h = await startHarness({ compat: 'mongodb', clock: 'manual' });
 *   await h.db.collection('c').insertOne({ a: 1 });
 *   await h.close();
 */
import { MongoClient, type Db, type MongoClientOptions } from 'mongodb';
import { MayflyServer, type MayflyServerOptions } from '../../src/index.js';

/** A server, a connected client and a fresh database. */
export interface Harness {
  server: MayflyServer;
  client: MongoClient;
  db: Db;
  close(): Promise<void>;
}

let dbCounter = 0;

/** Starts a server and connects a client to it. */
export async function startHarness(options: MayflyServerOptions = {}, clientOptions: MongoClientOptions = {}): Promise<Harness> {
  const server = await MayflyServer.create(options);
  const client = new MongoClient(server.getUri(), { serverSelectionTimeoutMS: 5000, ...clientOptions });
  await client.connect();
  const db = client.db(`test_${process.pid}_${++dbCounter}`);
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
