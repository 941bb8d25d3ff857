/**
 * renameCollection over an existing target with `dropTarget: true`, as mongod 8.2 reports it:
 * one rename event (with `showExpandedEvents`, `operationDescription.dropTarget` is the replaced
 * collection's UUID), no drop event of the target; a stream on the target sees the rename and
 * is invalidated; the oplog has one `renameCollection` entry naming the dropped UUID.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ChangeStreamDocument, Document } from 'mongodb';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ replSet: 'rs0', compat: 'mongodb' });
});
afterAll(async () => {
  await h.close();
});

/** Waits for the stream's aggregate to have been answered (the stream starts there). */
async function opened(stream: unknown): Promise<void> {
  await (stream as { cursor: { cursorInit(): Promise<void> } }).cursor.cursorInit();
}

async function uuidOf(name: string): Promise<unknown> {
  const [info] = await h.db.listCollections({ name }).toArray();
  return (info as Document).info.uuid;
}

it('a rename with dropTarget is one rename event naming the dropped target, and invalidates the target stream', async () => {
  const db = h.db;
  await db.createCollection('src');
  await db.createCollection('dst');
  await db.collection('dst').insertOne({ _id: 'old' });
  const srcUuid = await uuidOf('src');
  const dstUuid = await uuidOf('dst');
  const dbStream = db.watch([], { showExpandedEvents: true });
  const dstStream = db.collection('dst').watch([]);
  await opened(dbStream);
  await opened(dstStream);
  await db.collection('src').insertOne({ _id: 1 });
  await db.collection('src').rename('dst', { dropTarget: true });
  await db.collection('after').insertOne({ _id: 2 });

  const seen: ChangeStreamDocument[] = [];
  for (let k = 0; k < 3; k++) seen.push(await dbStream.next());
  expect(seen.map((e) => e.operationType)).toEqual(['insert', 'rename', 'create']);
  const rename = seen[1] as Document;
  expect(rename.ns).toEqual({ db: db.databaseName, coll: 'src' });
  expect(rename.to).toEqual({ db: db.databaseName, coll: 'dst' });
  expect(rename.collectionUUID).toEqual(srcUuid);
  expect(rename.operationDescription).toEqual({ to: { db: db.databaseName, coll: 'dst' }, dropTarget: dstUuid });

  const onTarget = await dstStream.next();
  expect(onTarget.operationType).toBe('rename');
  expect((onTarget as Document).ns).toEqual({ db: db.databaseName, coll: 'src' });
  expect((onTarget as Document).operationDescription).toBeUndefined();
  expect((await dstStream.next()).operationType).toBe('invalidate');
  await dbStream.close();
  await dstStream.close();

  expect(await db.collection('dst').find().toArray()).toEqual([{ _id: 1 }]);
  const oplog = await h.client
    .db('local')
    .collection('oplog.rs')
    .find({ op: 'c', 'o.renameCollection': `${db.databaseName}.src` })
    .toArray();
  expect(oplog.map((e) => e.o)).toEqual([{ renameCollection: `${db.databaseName}.src`, to: `${db.databaseName}.dst`, stayTemp: false, dropTarget: dstUuid }]);
  const drops = await h.client.db('local').collection('oplog.rs').find({ op: 'c', 'o.drop': 'dst' }).toArray();
  expect(drops).toEqual([]);
});
