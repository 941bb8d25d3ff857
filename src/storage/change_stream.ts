/**
 * A change stream (mongod's $changeStream pipeline: oplog match, transform, check invalidate,
 * check resumability, add pre/post images, ensure the resume token is present): a tailable cursor
 * over the change log (change_log.ts). It reads the events after its position that belong to its
 * scope (a collection, a database, the cluster), shapes them as mongod 8.2's change events, runs
 * the stages that follow `$changeStream` on each, and reports its `postBatchResumeToken` with every
 * batch. A collection's drop or rename (a database's drop, for a database stream) ends the stream
 * with an `invalidate` event.
 */
import { EncodedDocument, Long, Timestamp, type Document } from '../bson/library.js';
import { bsonSize, encodeDocument } from '../bson/encode.js';
import { CommandError } from '../errors/command_error.js';
import {
  comparePositions,
  decodeResumeToken,
  highWaterMarkToken,
  resumeToken,
  type ChangeEntry,
  type ChangeLog,
  type ChangePosition,
} from './change_log.js';
import type { ChangeStreamSpec } from './aggregation/stages/change_stream.js';
import { MAX_BATCH_BYTES, TailableCursor } from './cursors.js';
import { formatValue } from './values/format.js';

/** What a stream watches. */
export type ChangeStreamScope =
  | { readonly kind: 'collection'; readonly db: string; readonly coll: string }
  | { readonly kind: 'database'; readonly db: string }
  | { readonly kind: 'cluster' };

/** What a stream needs besides its specification: the ports the aggregate command fills in. */
export interface ChangeStreamPorts {
  readonly log: ChangeLog;
  /** The newest cluster time handed out (a new stream starts just after it). */
  readonly clusterTimeNow: () => Timestamp;
  /** The current document of `documentKey` in `db.coll` (`updateLookup`), or null. */
  readonly lookup: (db: string, coll: string, documentKey: Document) => Document | null;
  /** The stages after `$changeStream`, run on one event (the event when there are none). */
  readonly transform: (event: Document) => Iterable<Document>;
  /** `$changeStreamSplitLargeEvent` ends the pipeline. */
  readonly split: boolean;
  /** Cosmos DB mode (src/cosmos/change_streams/): the event the stages see for `entry`, or undefined to skip it. */
  readonly shape?: (entry: ChangeEntry, event: Document) => Document | undefined;
  /** Cosmos DB mode: what a drop or rename of the watched collection answers instead of an `invalidate` event (thrown; the stream ends). */
  readonly invalidated?: (entry: ChangeEntry) => Error;
  /**
   * True when no stage follows `$changeStream` (`transform` hands the event back as it is): the
   * streams of one shape then share each event, built and encoded once (ChangeLog.shared).
   */
  readonly shareEvents?: boolean;
}

/**
 * A change event built once and handed to every stream of its shape: its BSON bytes are encoded
 * on the first reply that holds it and spliced into the others (`EncodedDocument`).
 */
class SharedEvent extends EncodedDocument {
  private bytes: Buffer | undefined;

  constructor(readonly doc: Document) {
    super();
  }

  private encoded(): Buffer {
    return (this.bytes ??= encodeDocument(this.doc));
  }

  bsonSize(): number {
    return this.encoded().length;
  }

  writeBson(target: Buffer, offset: number): number {
    const bytes = this.encoded();
    target.set(bytes, offset);
    return offset + bytes.length;
  }

  decode(): Document {
    return this.doc;
  }
}

/** What a stream hands out for one log entry: the documents (for their `_id`s) and what goes in the batch. */
interface EntryOutput {
  readonly docs: readonly Document[];
  readonly out: readonly (Document | EncodedDocument)[];
}

const NO_OUTPUT: EntryOutput = { docs: [], out: [] };

/** The classic events (those shown without `showExpandedEvents`). */
const CLASSIC = new Set(['insert', 'update', 'replace', 'delete', 'drop', 'rename', 'dropDatabase']);
/** The databases a whole-cluster stream never shows. */
const INTERNAL_DBS = new Set(['admin', 'config', 'local']);
/** The message of 286. */
const HISTORY_LOST = 'Resume of change stream was not possible, as the resume point may no longer be in the oplog.';
/** The label of the errors after which a stream cannot be resumed. */
const NON_RESUMABLE = { errorLabels: ['NonResumableChangeStreamError'] };

/** The first and next timestamp after `ts` (the point a new stream starts at). */
function nextTick(ts: Timestamp): Timestamp {
  const t = ts.high >>> 0;
  const i = ts.low >>> 0;
  return i === 0xffffffff ? new Timestamp({ t: t + 1, i: 0 }) : new Timestamp({ t, i: i + 1 });
}

/** The checks of `assertIsLegalSpecification` that need the namespace (after 40573). */
export function checkChangeStreamNamespace(spec: ChangeStreamSpec, db: string, coll: string | null): ChangeStreamScope {
  const ns = coll === null ? `${db}.$cmd.aggregate` : `${db}.${coll}`;
  if (spec.allChangesForCluster && !(db === 'admin' && coll === null)) {
    throw new CommandError('InvalidOptions', `A $changeStream with 'allChangesForCluster:true' may only be opened on the 'admin' database, and with no collection name; found ${ns}`);
  }
  const allowed = db === 'admin' ? spec.allChangesForCluster : db !== 'local' && (db !== 'config' || spec.allowToRunOnConfigDB);
  if (!allowed) throw new CommandError('InvalidNamespace', `$changeStream may not be opened on the internal ${db} database`);
  if (coll !== null && coll.startsWith('system.') && !spec.allowToRunOnSystemNS) {
    throw new CommandError('InvalidNamespace', `$changeStream may not be opened on the internal ${ns} collection`);
  }
  if (spec.resumeAfter !== undefined && spec.startAfter !== undefined) {
    throw new CommandError(50865, "Do not specify both 'resumeAfter' and 'startAfter' in a $changeStream stage");
  }
  const tokenDoc = spec.resumeAfter ?? spec.startAfter;
  const token = tokenDoc === undefined ? undefined : decodeResumeToken(tokenDoc);
  if (spec.startAtOperationTime !== undefined && token !== undefined) {
    throw new CommandError(40674, 'Only one type of resume option is allowed, but multiple were found');
  }
  if (spec.resumeAfter !== undefined && token?.fromInvalidate) {
    throw new CommandError('InvalidResumeToken', "Attempting to resume a change stream using 'resumeAfter' is not allowed from an invalidate notification");
  }
  if (token !== undefined && !token.hasUuid && coll !== null && token.txnOpIndex >= 0) {
    throw new CommandError('InvalidResumeToken', 'Attempted to resume a single-collection stream, but the resume token does not include a UUID');
  }
  if (db === 'admin' && coll === null) return { kind: 'cluster' };
  return coll === null ? { kind: 'database', db } : { kind: 'collection', db, coll };
}

/** A change stream's cursor. */
export class ChangeStreamCursor extends TailableCursor {
  /** The seq of the last log entry read. */
  private seq: number;
  private pbrt: Document;
  private invalidateAfter: ChangeEntry | undefined;
  private ended = false;
  /** Fragments of a split event still to hand out. */
  private pendingDocs: Document[] = [];

  /** Opens the stream of `spec` over `scope`; throws 286 when its start is no longer in the log. */
  constructor(
    ns: string,
    nowMs: number,
    private readonly spec: ChangeStreamSpec,
    private readonly scope: ChangeStreamScope,
    private readonly ports: ChangeStreamPorts,
  ) {
    super(ns, nowMs);
    const log = ports.log;
    const tokenDoc = spec.resumeAfter ?? spec.startAfter;
    if (tokenDoc !== undefined) {
      const token = decodeResumeToken(tokenDoc);
      const pos: ChangePosition = { clusterTime: token.clusterTime, txnOpIndex: token.txnOpIndex };
      const at = log.seqAt(pos);
      if (at.lost) throw new CommandError('ChangeStreamHistoryLost', HISTORY_LOST, NON_RESUMABLE);
      if (token.txnOpIndex >= 0 && log.entryAt(pos) === undefined && log.last !== undefined && comparePositions(pos, log.last) <= 0) {
        throw new CommandError('ChangeStreamFatalError', 'cannot resume stream; the resume token was not found.', NON_RESUMABLE);
      }
      this.seq = at.seq;
      this.pbrt = tokenDoc;
    } else {
      const start = spec.startAtOperationTime ?? nextTick(ports.clusterTimeNow());
      const at = log.seqAt({ clusterTime: start, txnOpIndex: -1 });
      if (at.lost) throw new CommandError('ChangeStreamHistoryLost', HISTORY_LOST, NON_RESUMABLE);
      this.seq = at.seq;
      this.pbrt = highWaterMarkToken(start);
    }
  }

  override subscribe(wake: () => void): () => void {
    return this.ports.log.onCommit(wake);
  }

  override get exhausted(): boolean {
    return this.ended;
  }

  override replyFields(): Document {
    return { postBatchResumeToken: this.pbrt };
  }

  /** The events available now (at most `maxDocs`), within 16 MiB. */
  override nextBatch(maxDocs: number | undefined): Document[] {
    const batch: Document[] = [];
    let bytes = 0;
    // An encoded event stands for its document in the batch (the reply splices its bytes).
    const push = (doc: Document | EncodedDocument): boolean => {
      const size = doc instanceof EncodedDocument ? doc.bsonSize() : bsonSize(doc);
      if (batch.length > 0 && bytes + size > MAX_BATCH_BYTES) return false;
      bytes += size;
      batch.push(doc as Document);
      return true;
    };
    const full = (): boolean => maxDocs !== undefined && batch.length >= maxDocs;
    while (this.pendingDocs.length > 0 && !full()) {
      if (!push(this.pendingDocs[0]!)) return batch;
      this.pbrt = this.pendingDocs.shift()!._id as Document;
    }
    if (this.ended) return batch;
    const log = this.ports.log;
    if (log.lostAfter(this.seq)) throw new CommandError('ChangeStreamHistoryLost', HISTORY_LOST, NON_RESUMABLE);
    while (!full() && this.pendingDocs.length === 0) {
      if (this.invalidateAfter !== undefined) {
        const e = this.invalidateAfter;
        if (this.ports.invalidated !== undefined) {
          // The events before it are handed out first; the next read answers the error.
          if (batch.length > 0) break;
          this.ended = true;
          this.invalidateAfter = undefined;
          throw this.ports.invalidated(e);
        }
        const invalidate: Document = { _id: resumeToken(e, true, e.uuid), operationType: 'invalidate', clusterTime: e.clusterTime, wallTime: new Date(e.wallTimeMs) };
        if (!push(invalidate)) break;
        this.pbrt = invalidate._id as Document;
        this.ended = true;
        this.invalidateAfter = undefined;
        break;
      }
      const entry = log.entryAfter(this.seq);
      if (entry === undefined) break;
      const { docs, out } = this.outputOf(entry);
      this.seq = entry.seq;
      if (this.invalidates(entry)) this.invalidateAfter = entry;
      // The resume point: the last document handed out, else the entry's own position.
      let token: Document | undefined;
      let k = 0;
      for (; k < docs.length; k++) {
        if (!push(out[k]!)) break;
        if (docs[k]!._id !== undefined) token = docs[k]!._id as Document;
      }
      this.pbrt = token ?? this.positionToken(entry);
      if (k < docs.length) {
        this.pendingDocs = docs.slice(k);
        break;
      }
    }
    // Caught up: every event until now was seen, which a high-water mark says.
    if (this.invalidateAfter === undefined && !this.ended && this.pendingDocs.length === 0 && this.seq >= log.lastSeq && batch.length === 0) {
      const hwm = highWaterMarkToken(nextTick(this.ports.clusterTimeNow()));
      if ((hwm._data as string) > (this.pbrt._data as string)) this.pbrt = hwm;
    }
    return batch;
  }

  /** True when `entry` belongs to the stream's scope. */
  private inScope(entry: ChangeEntry): boolean {
    const scope = this.scope;
    if (scope.kind === 'collection') return (entry.db === scope.db && entry.coll === scope.coll) || overwrites(entry, scope);
    if (scope.kind === 'database' && entry.db !== scope.db) return false;
    if (scope.kind === 'cluster' && INTERNAL_DBS.has(entry.db)) return false;
    if (entry.coll === undefined) return true;
    return this.spec.showSystemEvents || !entry.coll.startsWith('system.');
  }

  /** True when `entry` ends the stream (after it, an invalidate). */
  private invalidates(entry: ChangeEntry): boolean {
    const scope = this.scope;
    if (scope.kind === 'collection') return ((entry.kind === 'drop' || entry.kind === 'rename') && entry.db === scope.db && entry.coll === scope.coll) || overwrites(entry, scope);
    if (scope.kind === 'database') return entry.kind === 'dropDatabase' && entry.db === scope.db;
    return false;
  }

  /** The resume token of `entry`'s position (computed once per entry, whichever stream asks). */
  private positionToken(entry: ChangeEntry): Document {
    return this.ports.log.shared(entry, 'token', () => resumeToken(entry, false, entry.uuid, entry.documentKey));
  }

  /**
   * What the stream hands out for `entry`: nothing when out of scope or filtered. With no stage
   * after `$changeStream`, the event is the same for every stream of the same shape (the
   * expanded flag and image options), so it is built, checked and encoded once and shared; an
   * update looked up now (`updateLookup`) is each stream's own.
   */
  private outputOf(entry: ChangeEntry): EntryOutput {
    if (!this.inScope(entry)) return NO_OUTPUT;
    if (!this.spec.showExpandedEvents && !CLASSIC.has(entry.kind)) return NO_OUTPUT;
    if (this.ports.shareEvents !== true || this.ports.shape !== undefined || (entry.kind === 'update' && this.spec.fullDocument === 'updateLookup')) {
      const docs = this.documentsOf(entry);
      return { docs, out: docs };
    }
    return this.ports.log.shared(entry, this.shareKey, () => {
      const docs = this.documentsOf(entry);
      return { docs, out: docs.map((d) => new SharedEvent(d)) };
    });
  }

  /** The key of the events this stream shares with others (the spec's fields that shape an event). */
  private get shareKey(): string {
    const spec = this.spec;
    return `event:${spec.showExpandedEvents ? 1 : 0}:${spec.fullDocument}:${spec.fullDocumentBeforeChange}:${this.ports.split ? 1 : 0}`;
  }

  /** The documents of `entry`'s event after the stream's stages (its fragments when split). */
  private documentsOf(entry: ChangeEntry): Document[] {
    const built = this.eventOf(entry);
    const event = this.ports.shape === undefined ? built : this.ports.shape(entry, built);
    if (event === undefined) return [];
    const out: Document[] = [];
    for (const doc of this.ports.transform(event)) {
      if (!sameToken(doc._id, event._id)) {
        throw new CommandError(
          'ChangeStreamFatalError',
          `Encountered an event whose _id field, which contains the resume token, was modified by the pipeline. Modifying the _id field of an event makes it impossible to resume the stream from that point. Only transformations that retain the unmodified _id field are allowed. Expected: ${formatValue({ _id: event._id })} but found: ${formatValue(doc._id === undefined ? {} : { _id: doc._id })}`,
          NON_RESUMABLE,
        );
      }
      if (this.ports.split) out.push(...splitLargeEvent(doc));
      else {
        if (bsonSize(doc) > MAX_BATCH_BYTES) throw new CommandError('BSONObjectTooLarge', `Executor error during getMore :: caused by :: BSONObj size: ${bsonSize(doc)} (0x${bsonSize(doc).toString(16).toUpperCase()}) is invalid. Size must be between 0 and 16793600(16MB) First element: _id: ${formatValue(doc._id)}`);
        out.push(doc);
      }
    }
    return out;
  }

  /** mongod 8.2's change event of `entry`. */
  private eventOf(e: ChangeEntry): Document {
    const spec = this.spec;
    const expanded = spec.showExpandedEvents;
    const ev: Document = { _id: { ...this.positionToken(e) }, operationType: e.kind, clusterTime: e.clusterTime, wallTime: new Date(e.wallTimeMs) };
    if (expanded && e.uuid !== undefined && e.kind !== 'dropDatabase') ev.collectionUUID = e.uuid;
    const ns: Document = e.coll === undefined ? { db: e.db } : { db: e.db, coll: e.coll };
    switch (e.kind) {
      case 'insert':
      case 'replace':
        ev.fullDocument = e.after;
        ev.ns = ns;
        ev.documentKey = e.documentKey;
        break;
      case 'update': {
        ev.ns = ns;
        ev.documentKey = e.documentKey;
        const d = e.updateDescription!;
        const description: Document = { updatedFields: d.updatedFields, removedFields: d.removedFields, truncatedArrays: d.truncatedArrays };
        if (expanded) description.disambiguatedPaths = (d as { disambiguatedPaths?: Document }).disambiguatedPaths ?? disambiguatedPaths(d.updatedFields, d.removedFields);
        ev.updateDescription = description;
        break;
      }
      case 'delete':
        ev.ns = ns;
        ev.documentKey = e.documentKey;
        break;
      case 'rename':
        ev.ns = ns;
        ev.to = e.to;
        if (expanded) ev.operationDescription = e.operationDescription;
        break;
      case 'create':
        ev.ns = ns;
        ev.operationDescription = e.operationDescription;
        ev.nsType = e.nsType;
        break;
      case 'modify':
        ev.ns = ns;
        ev.operationDescription = e.operationDescription;
        ev.stateBeforeChange = e.stateBeforeChange;
        break;
      case 'createIndexes':
      case 'dropIndexes':
        ev.ns = ns;
        ev.operationDescription = e.operationDescription;
        break;
      default:
        ev.ns = ns;
    }
    if (e.session !== undefined) {
      ev.lsid = e.session.lsid;
      ev.txnNumber = Long.fromBigInt(e.session.txnNumber);
    }
    this.addImages(e, ev);
    return ev;
  }

  /** `fullDocument` of an update and `fullDocumentBeforeChange` as the spec asks (47 when required and missing). */
  private addImages(e: ChangeEntry, ev: Document): void {
    const spec = this.spec;
    const withImages = e.kind === 'update' || e.kind === 'replace' || e.kind === 'delete';
    if (e.kind === 'update' && spec.fullDocument !== 'default') {
      let post: Document | null = null;
      if (spec.fullDocument === 'updateLookup') post = e.coll === undefined ? null : this.ports.lookup(e.db, e.coll, e.documentKey!);
      else post = e.before !== undefined ? (e.after ?? null) : null;
      if (post === null && spec.fullDocument === 'required') {
        throw new CommandError('NoMatchingDocument', `Change stream was configured to require a post-image for all update, delete and replace events, but the post-image was not found for event: ${formatValue(ev)}`);
      }
      ev.fullDocument = post;
    }
    if (withImages && spec.fullDocumentBeforeChange !== 'off') {
      const pre = e.before ?? null;
      if (pre === null && spec.fullDocumentBeforeChange === 'required') {
        throw new CommandError('NoMatchingDocument', `Change stream was configured to require a pre-image for all update, delete and replace events, but the pre-image was not found for event: ${formatValue(ev)}`);
      }
      ev.fullDocumentBeforeChange = pre;
    }
  }
}

/**
 * True when `entry` is a rename onto the watched collection's namespace (mongod's "relevant
 * collection was overwritten": `o.renameCollection` exists and `o.to` is the namespace): a stream
 * on the target sees the rename, then its invalidate.
 */
function overwrites(entry: ChangeEntry, scope: { readonly db: string; readonly coll: string }): boolean {
  return entry.kind === 'rename' && entry.to !== undefined && entry.to.db === scope.db && entry.to.coll === scope.coll;
}

/** True when `id` is still the event's resume token `token`. */
function sameToken(id: unknown, token: unknown): boolean {
  if (id === null || typeof id !== 'object' || Array.isArray(id)) return false;
  const keys = Object.keys(id);
  return keys.length === 1 && keys[0] === '_data' && (id as Document)._data === (token as Document)._data;
}

/** The paths of an update with a numeric component, as their components (mongod's `disambiguatedPaths`). */
function disambiguatedPaths(updatedFields: Document, removedFields: readonly string[]): Document {
  const out: Document = {};
  for (const path of [...Object.keys(updatedFields), ...removedFields]) {
    const parts = path.split('.');
    if (parts.some((p) => /^\d+$/.test(p))) out[path] = parts;
  }
  return out;
}

/** The bytes a fragment may take (mongod splits to fit under the 16 MiB reply limit). */
const FRAGMENT_BYTES = 16 * 1024 * 1024 - 64 * 1024;

/** `$changeStreamSplitLargeEvent`: `doc` whole when it fits, else its fragments by top-level field. */
export function splitLargeEvent(doc: Document): Document[] {
  if (bsonSize(doc) <= MAX_BATCH_BYTES) return [doc];
  const token = doc._id as Document;
  const fields = Object.entries(doc).filter(([k]) => k !== '_id');
  const groups: [string, unknown][][] = [];
  let current: [string, unknown][] = [];
  let size = 0;
  for (const field of fields) {
    const s = bsonSize({ [field[0]]: field[1] });
    if (current.length > 0 && size + s > FRAGMENT_BYTES) {
      groups.push(current);
      current = [];
      size = 0;
    }
    current.push(field);
    size += s;
  }
  if (current.length > 0) groups.push(current);
  if (groups.some((g) => bsonSize(Object.fromEntries(g)) > FRAGMENT_BYTES)) {
    throw new CommandError(7182803, 'Cannot split an event where a single field is larger than the maximum BSON size');
  }
  return groups.map((g, i) => ({
    _id: { _data: `${token._data as string}${(i + 1).toString(16).toUpperCase().padStart(8, '0')}` },
    splitEvent: { fragment: i + 1, of: groups.length },
    ...Object.fromEntries(g),
  }));
}
