/**
 * The role matrix: for each built-in role, a user holding only that role runs a command the
 * role allows and is refused one it does not, with mongod's exact 13 text ("not authorized on
 * <db> to execute command { … }", the command as the server received it, lsid included).
 */
import { Long, MongoClient, type ClientSession, type Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MayflyServer } from '../../src/index.js';

let server: MayflyServer;
let root: MongoClient;

beforeAll(async () => {
  server = await MayflyServer.create({ auth: { username: 'root', password: 'example' } });
  root = new MongoClient(`mongodb://root:example@127.0.0.1:${server.port}/`, { serverSelectionTimeoutMS: 5000 });
  await root.connect();
  await root.db('shop').collection('c').insertOne({ _id: 1 as never });
});
afterAll(async () => {
  await root.close();
  await server.stop();
});

/** A command on a database: [db, command]. */
type Run = readonly [string, Document];

/** role (in `db`), a command it may run and what it answers, a command it may not. */
const MATRIX: ReadonlyArray<{ role: string; db: string; may: Run; answer: Document; mayNot: Run }> = [
  { role: 'read', db: 'shop', may: ['shop', { count: 'c' }], answer: { n: 1, ok: 1 }, mayNot: ['shop', { insert: 'c', documents: [{ _id: 2 }] }] },
  { role: 'readWrite', db: 'shop', may: ['shop', { delete: 'c', deletes: [{ q: { _id: 99 }, limit: 1 }] }], answer: { n: 0, ok: 1 }, mayNot: ['shop', { dropDatabase: 1 }] },
  { role: 'dbAdmin', db: 'shop', may: ['shop', { listIndexes: 'c' }], answer: { ok: 1 }, mayNot: ['shop', { find: 'c', filter: {} }] },
  { role: 'dbOwner', db: 'shop', may: ['shop', { usersInfo: 1 }], answer: { ok: 1 }, mayNot: ['other', { find: 'c', filter: {} }] },
  { role: 'userAdmin', db: 'shop', may: ['shop', { rolesInfo: 1 }], answer: { roles: [], ok: 1 }, mayNot: ['shop', { count: 'c' }] },
  { role: 'clusterAdmin', db: 'admin', may: ['admin', { getCmdLineOpts: 1 }], answer: { ok: 1 }, mayNot: ['shop', { find: 'c', filter: {} }] },
  { role: 'clusterManager', db: 'admin', may: ['admin', { setFeatureCompatibilityVersion: '8.2', confirm: true }], answer: { ok: 1 }, mayNot: ['admin', { serverStatus: 1 }] },
  { role: 'clusterMonitor', db: 'admin', may: ['admin', { getParameter: 1, ttlMonitorSleepSecs: 1 }], answer: { ttlMonitorSleepSecs: 60, ok: 1 }, mayNot: ['shop', { insert: 'c', documents: [{ _id: 3 }] }] },
  { role: 'hostManager', db: 'admin', may: ['admin', { setParameter: 1, ttlMonitorSleepSecs: 60 }], answer: { was: 60, ok: 1 }, mayNot: ['admin', { getParameter: 1, ttlMonitorSleepSecs: 1 }] },
  { role: 'readAnyDatabase', db: 'admin', may: ['shop', { count: 'c' }], answer: { n: 1, ok: 1 }, mayNot: ['shop', { update: 'c', updates: [{ q: {}, u: { $set: { a: 1 } } }] }] },
  { role: 'readWriteAnyDatabase', db: 'admin', may: ['elsewhere', { insert: 'c', documents: [{ _id: 1 }] }], answer: { n: 1, ok: 1 }, mayNot: ['admin', { serverStatus: 1 }] },
  { role: 'userAdminAnyDatabase', db: 'admin', may: ['shop', { usersInfo: 'nobody' }], answer: { users: [], ok: 1 }, mayNot: ['shop', { count: 'c' }] },
  { role: 'dbAdminAnyDatabase', db: 'admin', may: ['shop', { dbStats: 1 }], answer: { db: 'shop', ok: 1 }, mayNot: ['shop', { count: 'c' }] },
  { role: 'backup', db: 'admin', may: ['shop', { count: 'c' }], answer: { n: 1, ok: 1 }, mayNot: ['shop', { insert: 'c', documents: [{ _id: 4 }] }] },
  { role: 'restore', db: 'admin', may: ['restored', { insert: 'c', documents: [{ _id: 1 }] }], answer: { n: 1, ok: 1 }, mayNot: ['shop', { count: 'c' }] },
  { role: 'root', db: 'admin', may: ['shop', { dropDatabase: 1 }], answer: { ok: 1 }, mayNot: ['admin', { insert: 'system.version', documents: [{ _id: 'x' }] }] },
];

/** `{ id: UUID("…") }` of the session, as mongod prints the lsid. */
function lsidText(session: ClientSession): string {
  const hex = Buffer.from(session.id!.id.buffer).toString('hex');
  return `{ id: UUID("${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}") }`;
}

/** A command as mongod prints it in the 13 message (fields in order; strings quoted). */
function printed(cmd: Document, session: ClientSession, db: string): string {
  const value = (v: unknown): string =>
    typeof v === 'string' ? `"${v}"` : Array.isArray(v) ? (v.length === 0 ? '[]' : `[ ${v.map(value).join(', ')} ]`) : typeof v === 'object' && v !== null ? doc(v as Document) : String(v);
  const doc = (d: Document): string => (Object.keys(d).length === 0 ? '{}' : `{ ${Object.entries(d).map(([k, v]) => `${k}: ${value(v)}`).join(', ')} }`);
  const inner = doc(cmd).slice(0, -2);
  return `${inner}, lsid: ${lsidText(session)}, $db: "${db}" }`;
}

describe('the role matrix', () => {
  beforeAll(async () => {
    for (const { role, db } of MATRIX) {
      await root.db(db).command({ createUser: `u_${role}`, pwd: 'pw', roles: [{ role, db }], mechanisms: ['SCRAM-SHA-256'] });
    }
  });

  test.each(MATRIX)('$role@$db', async ({ role, db, may, answer, mayNot }) => {
    const client = new MongoClient(`mongodb://u_${role}:pw@127.0.0.1:${server.port}/${db}`, { serverSelectionTimeoutMS: 5000, maxPoolSize: 1 });
    await client.connect();
    try {
      const allowed = await client.db(may[0]).command(may[1]).catch((e: Document) => ({ ok: 0, code: e.code }));
      expect(allowed).toMatchObject(answer);
      const session = client.startSession();
      try {
        await expect(client.db(mayNot[0]).command(mayNot[1], { session })).rejects.toMatchObject({
          code: 13,
          codeName: 'Unauthorized',
          message: `not authorized on ${mayNot[0]} to execute command ${printed(mayNot[1], session, mayNot[0])}`,
        });
      } finally {
        await session.endSession();
      }
    } finally {
      await client.close();
    }
  });

  test('__system may run anything', async () => {
    await root.db('admin').command({ createUser: 'internal', pwd: 'pw', roles: ['__system'], mechanisms: ['SCRAM-SHA-256'] });
    const client = new MongoClient(`mongodb://internal:pw@127.0.0.1:${server.port}/admin`, { serverSelectionTimeoutMS: 5000 });
    await client.connect();
    try {
      expect(await client.db('admin').command({ insert: 'system.version', documents: [{ _id: 'probe' }] })).toEqual({ n: 1, ok: 1 });
      expect((await client.db('admin').command({ serverStatus: 1 })).ok).toBe(1);
    } finally {
      await client.close();
    }
  });
});

describe('cursors belong to the user who opened them', () => {
  test("another user's getMore answers 13 with mongod's text; the owner's succeeds", async () => {
    await root.db('shop').command({ createUser: 'reader2', pwd: 'pw', roles: ['read'] });
    await root.db('shop').collection('many').insertMany(Array.from({ length: 5 }, (_, i) => ({ _id: i as never })));
    const other = new MongoClient(`mongodb://reader2:pw@127.0.0.1:${server.port}/shop`, { serverSelectionTimeoutMS: 5000 });
    try {
      const first = await root.db('shop').command({ find: 'many', batchSize: 2 });
      const id = Long.fromValue(first.cursor.id);
      const err = await other
        .db('shop')
        .command({ getMore: id, collection: 'many' })
        .catch((e: unknown) => e as { code: number; message: string });
      expect({ code: (err as { code: number }).code, message: (err as { message: string }).message }).toEqual({
        code: 13,
        message: `cursor id ${id.toString()} was not created by the authenticated user`,
      });
      const more = await root.db('shop').command({ getMore: id, collection: 'many' });
      expect(more.cursor.nextBatch).toEqual([{ _id: 2 }, { _id: 3 }, { _id: 4 }]);
    } finally {
      await other.close();
    }
  });
});

describe('listDatabases shows a user the databases it has privileges in', () => {
  test('a read user of one database sees that one; asking for all of them is 13; readAnyDatabase sees all', async () => {
    await root.db('other').collection('x').insertOne({ _id: 1 as never });
    await root.db('shop').command({ createUser: 'lister', pwd: 'pw', roles: ['read'] });
    await root.db('admin').command({ createUser: 'reads-all', pwd: 'pw', roles: ['readAnyDatabase'] });
    const lister = new MongoClient(`mongodb://lister:pw@127.0.0.1:${server.port}/shop`, { serverSelectionTimeoutMS: 5000 });
    const all = new MongoClient(`mongodb://reads-all:pw@127.0.0.1:${server.port}/admin`, { serverSelectionTimeoutMS: 5000 });
    try {
      const mine = await lister.db('admin').command({ listDatabases: 1, nameOnly: true });
      expect(mine.databases).toEqual([{ name: 'shop' }]);
      const refused = await lister
        .db('admin')
        .command({ listDatabases: 1, nameOnly: true, authorizedDatabases: false })
        .catch((e: unknown) => e as { code: number; message: string });
      expect({ code: (refused as { code: number }).code, message: (refused as { message: string }).message }).toEqual({ code: 13, message: 'Insufficient permissions to list all databases' });
      const names = (await all.db('admin').command({ listDatabases: 1, nameOnly: true })).databases.map((d: { name: string }) => d.name);
      expect(names).toEqual((await root.db('admin').command({ listDatabases: 1, nameOnly: true })).databases.map((d: { name: string }) => d.name));
      expect(names).toContain('other');
    } finally {
      await lister.close();
      await all.close();
    }
  });
});
