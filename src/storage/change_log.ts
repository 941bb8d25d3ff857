/**
 * The change log of the one-node replica set (WRITE_PATH.md, step 4): an observer of the write
 * path that keeps the committed events, in commit order, in a bounded log, for change streams
 * (change_stream.ts) and for `local.oplog.rs` (oplog.ts: one log, two presentations).
 *
 * - Each event has a position `(clusterTime, txnOpIndex)`: the operations of one write unit share
 *   its cluster time and are numbered within it (a transaction's, an insert batch's), so that
 *   positions are strictly ordered and every event has its own resume token.
 * - What an event needs later is captured at commit (the post-image of an insert or update, the
 *   update description, the pre-image when the collection has `changeStreamPreAndPostImages`),
 *   because the write's lazy fields read a record that later writes change.
 * - The log keeps the newest `maxEvents` events (`CHANGE_LOG_MAX_EVENTS` by default, the server
 *   parameter `changeStreamHistorySize`); a stream positioned before the oldest kept event has
 *   lost its history (286 ChangeStreamHistoryLost).
 * - Waiting cursors subscribe (`onCommit`) and are woken by the commit that appends events, never
 *   by polling.
 *
 * Resume tokens are `{_data: <hex>}` as mongod's (resume_token.cpp): an uppercase hex string that
 * starts with the KeyString of the cluster time (`82` + 8 bytes), so that tokens compare in event
 * order as strings; then the token type (`00` a high-water mark: the point before every event of
 * its time; `80` an event), the event's index within its commit, whether it is an invalidate, and
 * the collection UUID and document key (carried, not needed to resume).
 */
import { Long, Timestamp, type Document, type UUID } from '../bson/library.js';
import { serialize } from '../bson/encode.js';
import { CommandError } from '../errors/command_error.js';
import { isDocument } from './values/paths.js';
import { bsonTypeOf as typeName } from './values/bson_type.js';
import { valuesEqual } from './values/compare.js';
import { Oplog, oplogEntry, type OplogWrite } from './oplog.js';
import { TailableCursor } from './cursors.js';
import { Waitable } from './waitable.js';
import type {
  CollModEvent,
  CommitSession,
  CommitTime,
  CreateCollectionEvent,
  CreateIndexesEvent,
  DropCollectionEvent,
  DropDatabaseEvent,
  DropIndexesEvent,
  OpObserver,
  RenameCollectionEvent,
  UpdateDescription,
  WriteEvent,
  WriteTarget,
} from './write/observers.js';

/** The default number of events kept (about the last 100k writes; older resume points are lost). */
export const CHANGE_LOG_MAX_EVENTS = 100_000;

/** Dropped events kept at the front before they are cut off (one cut per this many appends at least). */
const COMPACT_AT = 1024;

/** The kinds of event the log records (change streams' `operationType`s, but `invalidate`). */
export type ChangeKind = 'insert' | 'update' | 'replace' | 'delete' | 'drop' | 'rename' | 'dropDatabase' | 'create' | 'createIndexes' | 'dropIndexes' | 'modify';

/** Where an event stands in the log. */
export interface ChangePosition {
  readonly clusterTime: Timestamp;
  readonly txnOpIndex: number;
}

/** One committed event, as kept. */
export interface ChangeEntry extends ChangePosition {
  /** The position in the log (counts up from 1, never reused). */
  readonly seq: number;
  readonly kind: ChangeKind;
  readonly wallTimeMs: number;
  readonly db: string;
  /** The collection (absent for dropDatabase). */
  readonly coll?: string;
  readonly uuid?: UUID;
  readonly documentKey?: Document;
  /** insert/replace: the document written; update: the document after the update. */
  readonly after?: Document;
  /** The document before (update, replace, delete) when the collection records pre-images. */
  readonly before?: Document;
  readonly updateDescription?: UpdateDescription;
  /** rename: the new namespace; dropTarget: the UUID of the collection it replaced. */
  readonly to?: { readonly db: string; readonly coll: string };
  readonly dropTargetUuid?: UUID;
  /** create/createIndexes/dropIndexes/modify: mongod's `operationDescription`. */
  readonly operationDescription?: Document;
  /** modify: mongod's `stateBeforeChange`. */
  readonly stateBeforeChange?: Document;
  /** create: `collection`, `view` or `timeseries`. */
  readonly nsType?: string;
  /** The transaction the event committed in (its lsid and txnNumber go on the event). */
  readonly session?: CommitSession;
  /** Why the storage deleted the document on its own (a TTL expiry, capped eviction). */
  readonly cause?: string;
}

/** True when the collection records pre- and post-images (`changeStreamPreAndPostImages: {enabled: true}`). */
export function recordsImages(options: Document | undefined): boolean {
  const images = options?.changeStreamPreAndPostImages;
  return isDocument(images) && images.enabled === true;
}

/**
 * The `changeStreamPreAndPostImages` option of `create` and `collMod` (`ChangeStreamPreAndPostImagesOptions`:
 * `{enabled: <bool>}`, with the IDL's errors): true when enabled.
 */
export function parseChangeStreamImagesOption(value: unknown): boolean {
  const field = 'changeStreamPreAndPostImages';
  if (!isDocument(value) || Array.isArray(value)) throw new CommandError('TypeMismatch', `BSON field '${field}' is the wrong type '${typeName(value)}', expected type 'object'`);
  for (const key of Object.keys(value)) {
    if (key !== 'enabled') throw new CommandError('IDLUnknownField', `BSON field '${field}.${key}' is an unknown field.`);
  }
  if (value.enabled === undefined) throw new CommandError('IDLFailedToParse', `BSON field '${field}.enabled' is missing but a required field`);
  if (typeof value.enabled !== 'boolean') throw new CommandError('TypeMismatch', `BSON field '${field}.enabled' is the wrong type '${typeName(value.enabled)}', expected type 'bool'`);
  return value.enabled;
}

/** The options of a write target that is a collection (a `Collection` carries them). */
function optionsOf(target: WriteTarget): Document | undefined {
  const options = (target as { options?: unknown }).options;
  return isDocument(options) ? options : undefined;
}

function hex(n: number, digits: number): string {
  return (n >>> 0).toString(16).toUpperCase().padStart(digits, '0');
}

/** The resume token of the event at `pos` (`fromInvalidate`: the invalidate that follows it). */
export function resumeToken(pos: ChangePosition, fromInvalidate = false, uuid?: UUID, documentKey?: Document): Document {
  let data = `82${hex(pos.clusterTime.high, 8)}${hex(pos.clusterTime.low, 8)}80${hex(pos.txnOpIndex, 8)}${fromInvalidate ? '01' : '00'}`;
  if (uuid !== undefined) data += `64${Buffer.from(uuid.buffer).toString('hex').toUpperCase()}`;
  if (documentKey !== undefined) data += `46${serialize(documentKey).toString('hex').toUpperCase()}`;
  return { _data: data };
}

/** A high-water-mark token: no event, the point just before every event of `clusterTime`. */
export function highWaterMarkToken(clusterTime: Timestamp): Document {
  return { _data: `82${hex(clusterTime.high, 8)}${hex(clusterTime.low, 8)}000000000000` };
}

/** What a resume token says. */
export interface DecodedToken {
  readonly clusterTime: Timestamp;
  /** -1 for a high-water mark (the point before the events of its time). */
  readonly txnOpIndex: number;
  readonly fromInvalidate: boolean;
  readonly hasUuid: boolean;
}

/** Reads a resume token given as `resumeAfter`/`startAfter` (mongod's ResumeToken::parse errors). */
export function decodeResumeToken(token: Document): DecodedToken {
  const data = token._data;
  if (typeof data !== 'string') {
    throw new CommandError(40647, `Bad resume token: _data of missing or of wrong type. Expected string, got ${JSON.stringify(token)}`);
  }
  if (!/^[0-9A-Fa-f]*$/.test(data) || data.length % 2 !== 0) throw new CommandError('FailedToParse', 'resume token string was not a valid hex string');
  const type = data.slice(18, 20);
  if (data.length < 30 || data.slice(0, 2) !== '82' || (type !== '00' && type !== '80')) throw new CommandError(50811, `KeyString format error: Unknown type: ${parseInt(data.slice(0, 2) || '0', 16)}`);
  const t = parseInt(data.slice(2, 10), 16);
  const i = parseInt(data.slice(10, 18), 16);
  const idx = type === '00' ? -1 : parseInt(data.slice(20, 28), 16);
  return { clusterTime: new Timestamp({ t, i }), txnOpIndex: idx, fromInvalidate: data.slice(28, 30) === '01', hasUuid: data.slice(30, 32) === '64' };
}

/** Compares positions: negative when `a` is before `b`. */
export function comparePositions(a: ChangePosition, b: ChangePosition): number {
  const c = a.clusterTime.compare(b.clusterTime);
  return c !== 0 ? c : a.txnOpIndex - b.txnOpIndex;
}

/** The change log of one catalog: an `OpObserver` keeping the committed events. */
export class ChangeLog implements OpObserver {
  /** The kept events are `entries[head..]` (the dropped ones are cut off the front in chunks: O(1) per append). */
  private readonly entries: ChangeEntry[] = [];
  private head = 0;
  private nextSeq = 1;
  /** The newest position dropped from the log (events at or before it are lost). */
  private lostUpTo: ChangePosition | undefined;
  /** The waiting cursors: raised by every notification that appends events. */
  private readonly commits = new Waitable();
  /** The options of each collection as its last create or collMod left them (a modify event's before and after). */
  private readonly optionsByUuid = new Map<string, Document>();
  /** The same events in `local.oplog.rs`'s shape. */
  private readonly oplog: Oplog;
  /** The commit the events being appended belong to (its index counts its events). */
  private current: { clusterTime: Timestamp; next: number } | undefined;

  /** A log keeping the newest `maxEvents` events. */
  constructor(
    public maxEvents = CHANGE_LOG_MAX_EVENTS,
    private readonly term = 1,
  ) {
    this.oplog = new Oplog(Math.max(maxEvents, 1));
  }

  /** Calls `wake` after the commits that append events (once per turn, after it: waitable.ts); returns the unsubscribe. */
  onCommit(wake: () => void): () => void {
    return this.commits.subscribe(wake);
  }

  /** The number of cursors waiting. */
  get waiting(): number {
    return this.commits.waiting;
  }

  /** The events after `seq` (seq 0: all kept), oldest first. */
  *after(seq: number): IterableIterator<ChangeEntry> {
    const entries = this.entries;
    const first = entries[this.head];
    if (first === undefined) return;
    for (let k = this.head + Math.max(0, seq - first.seq + 1); k < entries.length; k++) yield entries[k]!;
  }

  /** The event just after `seq` (the next one a reader at `seq` reads), if kept. */
  entryAfter(seq: number): ChangeEntry | undefined {
    const first = this.entries[this.head];
    return first === undefined ? undefined : this.entries[this.head + Math.max(0, seq - first.seq + 1)];
  }

  /** The seq of the last event at or before `pos` (0: none kept before it); `lost` when the log no longer reaches back to it. */
  seqAt(pos: ChangePosition): { seq: number; lost: boolean } {
    const lost = this.lostUpTo !== undefined && comparePositions(pos, this.lostUpTo) < 0;
    const first = this.entries[this.head];
    let seq = first === undefined ? this.nextSeq - 1 : first.seq - 1;
    for (let k = this.head; k < this.entries.length; k++) {
      const e = this.entries[k]!;
      if (comparePositions(e, pos) > 0) break;
      seq = e.seq;
    }
    return { seq, lost };
  }

  /** The event of `pos` if kept. */
  entryAt(pos: ChangePosition): ChangeEntry | undefined {
    for (let k = this.head; k < this.entries.length; k++) if (comparePositions(this.entries[k]!, pos) === 0) return this.entries[k];
    return undefined;
  }

  /** True when events after `seq` were dropped before being read (the reader lost history). */
  lostAfter(seq: number): boolean {
    const first = this.entries[this.head];
    return first !== undefined && first.seq > seq + 1;
  }

  /** The seq of the newest event (0 when none yet). */
  get lastSeq(): number {
    return this.nextSeq - 1;
  }

  /** The newest event, if any. */
  get last(): ChangeEntry | undefined {
    return this.entries.length > this.head ? this.entries[this.entries.length - 1] : undefined;
  }

  // ---- OpObserver ------------------------------------------------------------------------

  onInserts(events: readonly WriteEvent[]): void {
    for (const e of events) {
      if (e.fromMigrate) continue;
      const after = e.after!;
      if (e.collection.name === 'system.views') this.viewEvent(e, 'create', after);
      this.append(e, { kind: 'insert', ...target(e.collection), documentKey: { _id: after._id }, after });
      this.oplogAppend(e, { op: 'i', ns: e.ns, ui: e.collection.uuid, o: after, o2: { _id: after._id } });
    }
    this.flush();
  }

  onUpdate(e: WriteEvent): void {
    if (e.fromMigrate) return;
    const images = recordsImages(optionsOf(e.collection));
    const after = e.after!;
    const documentKey = { _id: after._id };
    if (e.op === 'replace') {
      this.append(e, { kind: 'replace', ...target(e.collection), documentKey, after, ...(images && e.before ? { before: e.before } : {}) });
      this.oplogAppend(e, { op: 'u', ns: e.ns, ui: e.collection.uuid, o: after, o2: documentKey });
    } else {
      const before = e.before;
      const updateDescription = before !== undefined ? describeChange(before, after) : (e.updateDescription ?? { updatedFields: {}, removedFields: [], truncatedArrays: [] });
      this.append(e, { kind: 'update', ...target(e.collection), documentKey, after, updateDescription, ...(images && e.before ? { before: e.before } : {}) });
      const diff = before !== undefined ? documentDiff(before, after) : oplogDiff(updateDescription);
      this.oplogAppend(e, { op: 'u', ns: e.ns, ui: e.collection.uuid, o: { $v: 2, diff }, o2: documentKey });
    }
    this.flush();
  }

  onDelete(e: WriteEvent): void {
    if (e.fromMigrate) return;
    if (e.collection.name === 'system.views') this.viewEvent(e, 'drop', e.before);
    const images = recordsImages(optionsOf(e.collection));
    const documentKey = e.documentKey;
    this.append(e, { kind: 'delete', ...target(e.collection), documentKey, ...(images && e.before ? { before: e.before } : {}), ...(e.cause ? { cause: e.cause } : {}) });
    this.oplogAppend(e, { op: 'd', ns: e.ns, ui: e.collection.uuid, o: documentKey });
    this.flush();
  }

  onCreateCollection(e: CreateCollectionEvent): void {
    const options = e.options;
    this.optionsByUuid.set(e.collection.uuid.toHexString(), { ...options });
    const nsType = isDocument(options.timeseries) ? 'timeseries' : 'collection';
    const operationDescription: Document = { ...options, idIndex: { v: 2, key: { _id: 1 }, name: '_id_' } };
    this.append(e, { kind: 'create', ...target(e.collection), operationDescription, nsType });
    this.oplogAppend(e, { op: 'c', ns: `${e.collection.db}.$cmd`, ui: e.collection.uuid, o: { create: e.collection.name, ...options, idIndex: { v: 2, key: { _id: 1 }, name: '_id_' } } });
    this.flush();
  }

  onDropCollection(e: DropCollectionEvent): void {
    this.optionsByUuid.delete(e.collection.uuid.toHexString());
    this.append(e, { kind: 'drop', ...target(e.collection) });
    this.oplogAppend(e, { op: 'c', ns: `${e.collection.db}.$cmd`, ui: e.collection.uuid, o: { drop: e.collection.name } });
    this.flush();
  }

  onRenameCollection(e: RenameCollectionEvent): void {
    const [fromDb, fromColl] = splitNs(e.from);
    const [toDb, toColl] = splitNs(e.to);
    const operationDescription: Document = { to: { db: toDb, coll: toColl } };
    if (e.droppedTarget) operationDescription.dropTarget = e.droppedTarget.uuid;
    this.append(e, {
      kind: 'rename',
      db: fromDb,
      coll: fromColl,
      uuid: e.source.uuid,
      to: { db: toDb, coll: toColl },
      operationDescription,
      ...(e.droppedTarget ? { dropTargetUuid: e.droppedTarget.uuid } : {}),
    });
    const o: Document = { renameCollection: e.from, to: e.to, stayTemp: false };
    if (e.droppedTarget) o.dropTarget = e.droppedTarget.uuid;
    this.oplogAppend(e, { op: 'c', ns: `${fromDb}.$cmd`, ui: e.source.uuid, o });
    this.flush();
  }

  onCreateIndexes(e: CreateIndexesEvent): void {
    this.append(e, { kind: 'createIndexes', ...target(e.collection), operationDescription: { indexes: [...e.specs] } });
    for (const spec of e.specs) this.oplogAppend(e, { op: 'c', ns: `${e.collection.db}.$cmd`, ui: e.collection.uuid, o: { createIndexes: e.collection.name, ...spec } });
    this.flush();
  }

  onDropIndexes(e: DropIndexesEvent): void {
    this.append(e, { kind: 'dropIndexes', ...target(e.collection), operationDescription: { indexes: [...e.specs] } });
    for (const spec of e.specs) this.oplogAppend(e, { op: 'c', ns: `${e.collection.db}.$cmd`, ui: e.collection.uuid, o: { dropIndexes: e.collection.name, index: spec.name, o2: spec } });
    this.flush();
  }

  onCollMod(e: CollModEvent): void {
    const key = e.collection.uuid.toHexString();
    const previous = this.optionsByUuid.get(key) ?? {};
    const operationDescription: Document = {};
    for (const [name, value] of Object.entries(e.changes)) {
      if (name.endsWith('_new')) operationDescription[name.slice(0, -4)] = value;
      else if (!name.endsWith('_old')) operationDescription[name] = value;
    }
    // The options the collMod set or changed (the reply reports index changes only).
    for (const [name, value] of Object.entries(e.options)) {
      if (!Object.hasOwn(previous, name) || !sameValue(previous[name], value)) operationDescription[name] = value;
    }
    this.optionsByUuid.set(key, { ...e.options });
    this.append(e, { kind: 'modify', ...target(e.collection), operationDescription, stateBeforeChange: { collectionOptions: { uuid: e.collection.uuid, ...previous } } });
    this.oplogAppend(e, { op: 'c', ns: `${e.collection.db}.$cmd`, ui: e.collection.uuid, o: { collMod: e.collection.name, ...operationDescription } });
    this.flush();
  }

  onDropDatabase(e: DropDatabaseEvent): void {
    this.append(e, { kind: 'dropDatabase', db: e.db });
    this.oplogAppend(e, { op: 'c', ns: `${e.db}.$cmd`, o: { dropDatabase: 1 } });
    this.flush();
  }

  /** A view created or dropped (a write of `system.views`): its own `create` or `drop` event. */
  private viewEvent(e: WriteEvent, kind: 'create' | 'drop', definition: Document | undefined): void {
    const id = definition?._id;
    if (typeof id !== 'string' || !id.startsWith(`${e.collection.db}.`)) return;
    const coll = id.slice(e.collection.db.length + 1);
    if (kind === 'create') this.append(e, { kind, db: e.collection.db, coll, nsType: 'view', operationDescription: { viewOn: definition!.viewOn, pipeline: definition!.pipeline } });
    else this.append(e, { kind, db: e.collection.db, coll });
  }

  // ---- the log ----------------------------------------------------------------------------

  private append(time: CommitTime, fields: Omit<ChangeEntry, 'seq' | 'clusterTime' | 'txnOpIndex' | 'wallTimeMs' | 'session'>): void {
    if (this.current === undefined || !this.current.clusterTime.equals(time.clusterTime)) this.current = { clusterTime: time.clusterTime, next: 0 };
    const entry: ChangeEntry = {
      ...fields,
      seq: this.nextSeq++,
      clusterTime: time.clusterTime,
      txnOpIndex: this.current.next++,
      wallTimeMs: time.wallTimeMs,
      ...(time.session?.inTransaction ? { session: time.session } : {}),
    };
    this.entries.push(entry);
    const excess = this.entries.length - this.head - Math.max(1, this.maxEvents);
    if (excess > 0) {
      this.head += excess;
      this.lostUpTo = this.entries[this.head - 1]!;
      // The dropped front is cut off in chunks: every COMPACT_AT events, or once it is as long as
      // what is kept (a small log). O(1) per event amortised; few dropped events stay referenced.
      if (this.head >= COMPACT_AT || this.head * 2 >= this.entries.length) {
        this.entries.splice(0, this.head);
        this.head = 0;
      }
    }
  }

  /** Transaction entries wait for the end of their commit (one `applyOps`); the rest go now. */
  private pendingTxn: { time: CommitTime; ops: Document[] } | undefined;

  private oplogAppend(time: CommitTime, write: OplogWrite): void {
    const session = time.session;
    if (session?.inTransaction) {
      if (this.pendingTxn !== undefined && !this.pendingTxn.time.clusterTime.equals(time.clusterTime)) this.flushTxn();
      this.pendingTxn ??= { time, ops: [] };
      const op: Document = { op: write.op, ns: write.ns };
      if (write.ui !== undefined) op.ui = write.ui;
      op.o = write.o;
      if (write.o2 !== undefined) op.o2 = write.o2;
      this.pendingTxn.ops.push(op);
      return;
    }
    this.flushTxn();
    const retryable = session !== undefined && write.op !== 'c' ? { retryable: { lsid: session.lsid, txnNumber: session.txnNumber, stmtId: 0 } } : {};
    this.oplog.append(oplogEntry({ ...write, ...retryable }, time.clusterTime, this.term, time.wallTimeMs));
  }

  private flushTxn(): void {
    const txn = this.pendingTxn;
    if (txn === undefined) return;
    this.pendingTxn = undefined;
    const session = txn.time.session!;
    const entry: Document = {
      lsid: session.lsid,
      txnNumber: Long.fromBigInt(session.txnNumber),
      op: 'c',
      ns: 'admin.$cmd',
      o: { applyOps: txn.ops },
      ts: txn.time.clusterTime,
      t: Long.fromNumber(this.term),
      v: Long.fromNumber(2),
      wall: new Date(txn.time.wallTimeMs),
      prevOpTime: { ts: new Timestamp({ t: 0, i: 0 }), t: Long.fromNumber(-1) },
    };
    this.oplog.append(entry);
  }

  /** The oplog with every committed entry written (a transaction's `applyOps` once its commit is told). */
  oplogEntries(): Oplog {
    this.flushTxn();
    return this.oplog;
  }

  /**
   * Ends a notification: the waiting cursors are woken once after the turn (`Waitable`), not once
   * per event, so that a transaction's or an insert batch's events (and those of the other commits
   * of the turn) reach each cursor as one batch; each event is shaped once for all of them
   * (`shared`).
   */
  private flush(): void {
    this.commits.signal();
  }

  /** Per event, what the streams reading it share (its change-event documents by shape, encoded once). */
  private readonly sharedByEntry = new WeakMap<ChangeEntry, Map<string, unknown>>();

  /**
   * The value `make` builds for `entry` under `key`, built once and shared by every reader that
   * asks with the same key (a change event of one shape and its BSON bytes); kept as long as the
   * entry is.
   */
  shared<T>(entry: ChangeEntry, key: string, make: () => T): T {
    let byKey = this.sharedByEntry.get(entry);
    if (byKey === undefined) {
      byKey = new Map();
      this.sharedByEntry.set(entry, byKey);
    }
    if (byKey.has(key)) return byKey.get(key) as T;
    const value = make();
    byKey.set(key, value);
    return value;
  }
}

function target(coll: WriteTarget): { db: string; coll: string; uuid: UUID } {
  return { db: coll.db, coll: coll.name, uuid: coll.uuid };
}

function splitNs(ns: string): [string, string] {
  const dot = ns.indexOf('.');
  return [ns.slice(0, dot), ns.slice(dot + 1)];
}

/** What a change stream shows of an update: `UpdateDescription` and the paths with numeric parts, as their parts. */
export interface ChangeDescription extends UpdateDescription {
  readonly disambiguatedPaths: Document;
}

/**
 * What an update changed, as mongod's change events describe it (the oplog's `$v: 2` diff): a
 * changed field by its dotted path into embedded documents and arrays (an array's changed or added
 * elements by index, one whose every element changed whole; a shortened array in
 * `truncatedArrays`), each removed field; `disambiguatedPaths` names the paths with a numeric
 * part (array indices as numbers, field names as strings).
 */
export function describeChange(before: Document, after: Document): ChangeDescription {
  const updatedFields: Document = {};
  const removedFields: string[] = [];
  const truncatedArrays: Document[] = [];
  const disambiguatedPaths: Document = {};
  const note = (path: string, parts: readonly (string | number)[]): void => {
    if (parts.some((p) => typeof p === 'number' || /^\d+$/.test(p))) disambiguatedPaths[path] = [...parts];
  };
  const same = (a: unknown, b: unknown): boolean => sameValue(a, b);
  const value = (old: unknown, now: unknown, path: string, parts: (string | number)[]): void => {
    if (isDocument(old) && isDocument(now) && !Array.isArray(old) && !Array.isArray(now)) walkDoc(old, now, path, parts);
    else if (Array.isArray(old) && Array.isArray(now)) walkArray(old, now, path, parts);
    else if (!same(old, now)) {
      updatedFields[path] = now;
      note(path, parts);
    }
  };
  const walkDoc = (a: Document, b: Document, prefix: string, parts: (string | number)[]): void => {
    for (const key of Object.keys(b)) {
      const path = prefix === '' ? key : `${prefix}.${key}`;
      if (!Object.hasOwn(a, key)) {
        updatedFields[path] = b[key];
        note(path, [...parts, key]);
      } else value(a[key], b[key], path, [...parts, key]);
    }
    for (const key of Object.keys(a)) {
      if (Object.hasOwn(b, key)) continue;
      const path = prefix === '' ? key : `${prefix}.${key}`;
      removedFields.push(path);
      note(path, [...parts, key]);
    }
  };
  const walkArray = (a: unknown[], b: unknown[], path: string, parts: (string | number)[]): void => {
    const kept = Math.min(a.length, b.length);
    let changed = 0;
    let nested = false;
    for (let i = 0; i < kept; i++) {
      if (same(a[i], b[i])) continue;
      changed++;
      if (isDocument(a[i]) && isDocument(b[i])) nested = true;
    }
    if (!nested && b.length > 0 && changed === kept && kept > 0 && b.length >= a.length) {
      // Every element replaced: the array is set whole.
      updatedFields[path] = b;
      note(path, parts);
      return;
    }
    if (b.length < a.length) truncatedArrays.push({ field: path, newSize: b.length });
    for (let i = 0; i < kept; i++) value(a[i], b[i], `${path}.${i}`, [...parts, i]);
    for (let i = kept; i < b.length; i++) {
      updatedFields[`${path}.${i}`] = b[i];
      note(`${path}.${i}`, [...parts, i]);
    }
  };
  walkDoc(before, after, '', []);
  return { updatedFields, removedFields, truncatedArrays, disambiguatedPaths };
}

/** Equal values of the same BSON type (a change from 1 to 1.0 is a change). */
function sameValue(a: unknown, b: unknown): boolean {
  return typeName(a) === typeName(b) && valuesEqual(a, b);
}

/** An update description as the oplog's `$v: 2` diff (`u` set, `d` deleted, `s<field>` into a sub-document). */
export function oplogDiff(desc: UpdateDescription): Document {
  const diff: Document = {};
  const section = (path: string[]): Document => {
    let d = diff;
    for (const part of path) d = (d[`s${part}`] ??= {}) as Document;
    return d;
  };
  for (const [path, value] of Object.entries(desc.updatedFields)) {
    const parts = path.split('.');
    const leaf = parts.pop()!;
    const d = section(parts);
    ((d.u ??= {}) as Document)[leaf] = value;
  }
  for (const path of desc.removedFields) {
    const parts = path.split('.');
    const leaf = parts.pop()!;
    const d = section(parts);
    ((d.d ??= {}) as Document)[leaf] = false;
  }
  return diff;
}

/**
 * The oplog's `$v: 2` diff from `before` to `after` (mongod's doc_diff format): `d` the removed
 * fields (`false`), `u` the changed ones, `i` the added ones, `s<field>` the diff inside an
 * embedded document or array that both sides hold; an array's diff is `a: true`, `l` its new
 * length when it shrank, `u<index>` a changed or added element, `s<index>` a diff inside one.
 */
export function documentDiff(before: Document, after: Document): Document {
  const deletes: Document = {};
  const updates: Document = {};
  const inserts: Document = {};
  const subs: Document = {};
  for (const key of Object.keys(before)) if (!Object.hasOwn(after, key)) deletes[key] = false;
  for (const key of Object.keys(after)) {
    const now = after[key];
    if (!Object.hasOwn(before, key)) {
      inserts[key] = now;
      continue;
    }
    const old = before[key];
    const sub = subDiff(old, now);
    if (sub === null) updates[key] = now;
    else if (sub !== undefined) subs[`s${key}`] = sub;
  }
  const diff: Document = {};
  if (Object.keys(deletes).length > 0) diff.d = deletes;
  if (Object.keys(updates).length > 0) diff.u = updates;
  if (Object.keys(inserts).length > 0) diff.i = inserts;
  return Object.assign(diff, subs);
}

/** The diff inside `old` → `now`: undefined when unchanged, null when the value is replaced whole. */
function subDiff(old: unknown, now: unknown): Document | null | undefined {
  const oldDoc = isDocument(old) && !Array.isArray(old);
  const nowDoc = isDocument(now) && !Array.isArray(now);
  if (oldDoc && nowDoc) {
    const d = documentDiff(old, now);
    return Object.keys(d).length === 0 ? undefined : d;
  }
  if (Array.isArray(old) && Array.isArray(now)) return arrayDiff(old, now);
  return sameValue(old, now) ? undefined : null;
}

function arrayDiff(old: unknown[], now: unknown[]): Document | undefined {
  const diff: Document = { a: true };
  let changed = false;
  if (now.length < old.length) {
    diff.l = now.length;
    changed = true;
  }
  for (let i = 0; i < now.length; i++) {
    if (i >= old.length) {
      diff[`u${i}`] = now[i];
      changed = true;
      continue;
    }
    const sub = subDiff(old[i], now[i]);
    if (sub === null) diff[`u${i}`] = now[i];
    else if (sub !== undefined) diff[`s${i}`] = sub;
    if (sub !== undefined) changed = true;
  }
  return changed ? diff : undefined;
}

const logs = new WeakMap<object, ChangeLog>();

/** The change log attached to `catalog`'s write path, if one was attached. */
export function changeLogOf(catalog: object): ChangeLog | undefined {
  return logs.get(catalog);
}

/** Attaches a change log to `catalog` (its write path's observers); returns it (once per catalog). */
export function attachChangeLog(catalog: { writes: { observers: { add(o: OpObserver): () => void } } }, maxEvents = CHANGE_LOG_MAX_EVENTS): ChangeLog {
  let log = logs.get(catalog);
  if (log === undefined) {
    log = new ChangeLog(maxEvents);
    catalog.writes.observers.add(log);
    logs.set(catalog, log);
  }
  return log;
}


/** Where an oplog read starts and what it hands out (find's skip, limit and projection). */
export interface OplogReadOptions {
  /** The position (in the whole history) of the first entry to look at. */
  readonly from?: number;
  /** Matching entries passed over before the first handed out. */
  readonly skip?: number;
  /** The cursor ends after this many entries (0: no limit). */
  readonly limit?: number;
  /** The projection of each entry handed out. */
  readonly project?: (entry: Document) => Document;
}

/**
 * A read of `local.oplog.rs`: the entries matching `predicate`, oldest first; tailable, it stays
 * open at the end for the entries later commits append (woken by the change log, awaitData).
 */
export class OplogCursor extends TailableCursor {
  /** The position (in the whole history) of the next entry to read. */
  private next: number;
  private ended = false;
  private toSkip: number;
  private handedOut = 0;

  /** A cursor over `log`'s oplog from its oldest kept entry (or `options.from`). */
  constructor(
    ns: string,
    nowMs: number,
    private readonly log: ChangeLog,
    private readonly predicate: (entry: Document) => boolean,
    private readonly tailable: boolean,
    awaitData: boolean,
    private readonly options: OplogReadOptions = {},
  ) {
    super(ns, nowMs);
    (this as { awaitData: boolean }).awaitData = tailable && awaitData;
    this.next = options.from ?? 0;
    this.toSkip = options.skip ?? 0;
  }

  override subscribe(wake: () => void): () => void {
    return this.log.onCommit(wake);
  }

  override get exhausted(): boolean {
    return this.ended;
  }

  override nextBatch(maxDocs: number | undefined): Document[] {
    const oplog = this.log.oplogEntries();
    const batch: Document[] = [];
    const limit = this.options.limit ?? 0;
    const project = this.options.project;
    if (this.next < oplog.dropped) this.next = oplog.dropped;
    while (maxDocs === undefined || batch.length < maxDocs) {
      if (limit > 0 && this.handedOut >= limit) {
        this.ended = true;
        break;
      }
      const entry = oplog.at(this.next);
      if (entry === undefined) break;
      this.next++;
      if (!this.predicate(entry)) continue;
      if (this.toSkip > 0) {
        this.toSkip--;
        continue;
      }
      batch.push(project ? project(entry) : entry);
      this.handedOut++;
    }
    if (limit > 0 && this.handedOut >= limit) this.ended = true;
    if (!this.tailable && this.next >= oplog.end) this.ended = true;
    return batch;
  }
}
