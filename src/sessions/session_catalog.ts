/**
 * The session catalog of one server (mongod's LogicalSessionCache and SessionCatalog in one):
 * lsid → { lastUse, the cursors opened under it, the highest txnNumber seen, the retryable-write
 * results of that txnNumber by stmtId }. Every command that carries an `lsid` marks its session
 * used; `endSessions` forgets sessions; `killSessions` and its siblings kill a session's cursors;
 * sessions idle for longer than `localLogicalSessionTimeoutMinutes` (30) are dropped, on the
 * server's injected clock. `$listLocalSessions` and `$listSessions` read the records.
 *
 * Records have mongod's shape, `{ _id: { id, uid }, lastUse }`, where `uid` is the SHA-256 of the
 * (empty) user name, as on a server without authentication.
 */
import { createHash } from 'node:crypto';
import { Binary, type Document } from '../bson/library.js';
import { DEFAULT_TRANSACTION_LIFETIME_LIMIT_SECONDS, type Transaction } from './transaction.js';
import { bsonTypeOf } from '../storage/values/bson_type.js';

/** The session timeout mongod advertises (`logicalSessionTimeoutMinutes`) and applies. */
export const LOGICAL_SESSION_TIMEOUT_MINUTES = 30;
const TIMEOUT_MS = LOGICAL_SESSION_TIMEOUT_MINUTES * 60 * 1000;

/** mongod's digest of "no authenticated user": SHA-256 of the empty string. */
export const NO_AUTH_USER_DIGEST = new Binary(createHash('sha256').update('').digest(), 0);

/** One logical session. */
export interface SessionRecord {
  readonly id: Binary;
  readonly uid: Binary;
  lastUseMs: number;
  /** Cursors opened by a command of this session that may still be open (ids as bigint). */
  readonly cursorIds: Set<bigint>;
  /** The highest txnNumber a retryable write of this session used (undefined: none yet). */
  txnNumber: bigint | undefined;
  /** The results of that txnNumber's statements by stmtId (see retryable_writes.ts). */
  readonly statements: Map<number, unknown>;
  /** The session's transaction at `txnNumber`, if one was started (transaction.ts). */
  transaction: Transaction | undefined;
}

/** The sessions of one server. */
export class SessionCatalog {
  private readonly byId = new Map<string, SessionRecord>();
  /** `transactionLifetimeLimitSeconds`: a transaction running longer is aborted. */
  transactionLifetimeLimitSeconds = DEFAULT_TRANSACTION_LIFETIME_LIMIT_SECONDS;
  /** The sessions whose transaction is in progress. */
  private readonly inTransaction = new Set<SessionRecord>();
  /** The one touched last: drivers send the same session again and again. */
  private last: SessionRecord | undefined;

  /** Marks the session of `lsid` used now and returns it (undefined: not an lsid with an id). */
  touch(lsid: unknown, nowMs: number): SessionRecord | undefined {
    const id = sessionIdOf(lsid);
    if (!id) return undefined;
    const last = this.last;
    if (last && sameBytes(last.id, id)) {
      last.lastUseMs = nowMs;
      return last;
    }
    const key = keyOf(id);
    let rec = this.byId.get(key);
    if (rec) rec.lastUseMs = nowMs;
    else {
      if (this.byId.size % 1024 === 1023) this.prune(nowMs);
      rec = { id, uid: NO_AUTH_USER_DIGEST, lastUseMs: nowMs, cursorIds: new Set(), txnNumber: undefined, statements: new Map(), transaction: undefined };
      this.byId.set(key, rec);
    }
    this.last = rec;
    return rec;
  }

  /** The live session with this id, without touching it. */
  get(id: Binary, nowMs: number): SessionRecord | undefined {
    const rec = this.byId.get(keyOf(id));
    if (rec && nowMs - rec.lastUseMs > TIMEOUT_MS) {
      this.forget(rec);
      return undefined;
    }
    return rec;
  }

  /** Forgets the sessions of `ids` (endSessions); returns the cursors they had open. */
  end(ids: readonly Binary[]): bigint[] {
    const cursors: bigint[] = [];
    for (const id of ids) {
      const rec = this.byId.get(keyOf(id));
      if (!rec) continue;
      cursors.push(...rec.cursorIds);
      this.abortTransaction(rec);
      this.forget(rec);
    }
    return cursors;
  }

  /**
   * Kills the sessions of `ids` (killSessions; every session when `ids` is undefined): their
   * cursors are returned to be closed and their retryable-write state is dropped; the sessions
   * themselves stay known, as mongod's cache keeps them until they end or expire.
   */
  kill(ids: readonly Binary[] | undefined): bigint[] {
    const recs = ids === undefined ? [...this.byId.values()] : ids.map((id) => this.byId.get(keyOf(id))).filter((r): r is SessionRecord => r !== undefined);
    const cursors: bigint[] = [];
    for (const rec of recs) {
      cursors.push(...rec.cursorIds);
      rec.cursorIds.clear();
      this.abortTransaction(rec);
    }
    return cursors;
  }

  /** Notes that `rec`'s transaction is in progress (`expireTransactions` watches it). */
  transactionStarted(rec: SessionRecord): void {
    this.inTransaction.add(rec);
  }

  /** True while some session's transaction is in progress. */
  get transactionsOpen(): boolean {
    return this.inTransaction.size > 0;
  }

  /** Aborts the transactions older than the lifetime limit at `nowMs`; forgets those that ended. */
  expireTransactions(nowMs: number): void {
    for (const rec of this.inTransaction) {
      const txn = rec.transaction;
      if (txn !== undefined && txn.expired(nowMs, this.transactionLifetimeLimitSeconds)) txn.abort();
      if (txn === undefined || txn.state !== 'inProgress') this.inTransaction.delete(rec);
    }
  }

  /** Aborts `rec`'s transaction if one is in progress (killSessions, endSessions). */
  private abortTransaction(rec: SessionRecord): void {
    rec.transaction?.abort();
    this.inTransaction.delete(rec);
  }

  /** Records that a command of `rec`'s session opened cursor `id`. */
  addCursor(rec: SessionRecord, id: bigint): void {
    rec.cursorIds.add(id);
  }

  /** The live sessions as `$listLocalSessions` returns them. */
  records(nowMs: number): Document[] {
    this.prune(nowMs);
    return [...this.byId.values()].map((rec) => ({ _id: { id: rec.id, uid: rec.uid }, lastUse: new Date(rec.lastUseMs) }));
  }

  /** Number of live sessions (serverStatus' logicalSessionRecordCache.activeSessionsCount). */
  get size(): number {
    return this.byId.size;
  }

  /** Drops the sessions idle for longer than the timeout. */
  prune(nowMs: number): void {
    for (const rec of this.byId.values()) if (nowMs - rec.lastUseMs > TIMEOUT_MS) this.forget(rec);
  }

  private forget(rec: SessionRecord): void {
    this.abortTransaction(rec);
    this.byId.delete(keyOf(rec.id));
    if (this.last === rec) this.last = undefined;
  }
}

const catalogs = new WeakMap<object, SessionCatalog>();
let lastServer: object | undefined;
let lastCatalog: SessionCatalog | undefined;

/** The session catalog of `server` (one per server instance, created on first use). */
export function sessionCatalogOf(server: object): SessionCatalog {
  if (server === lastServer) return lastCatalog!;
  let catalog = catalogs.get(server);
  if (!catalog) {
    catalog = new SessionCatalog();
    catalogs.set(server, catalog);
  }
  lastServer = server;
  lastCatalog = catalog;
  return catalog;
}

/** The `id` of an `lsid` document (a Binary), or undefined. */
export function sessionIdOf(lsid: unknown): Binary | undefined {
  if (bsonTypeOf(lsid) !== 'object') return undefined;
  const id = (lsid as Document).id;
  return id instanceof Binary ? id : undefined;
}

function keyOf(id: Binary): string {
  return id.toString('hex');
}

function sameBytes(a: Binary, b: Binary): boolean {
  if (a.position !== b.position || a.sub_type !== b.sub_type) return false;
  for (let i = 0; i < a.position; i++) if (a.buffer[i] !== b.buffer[i]) return false;
  return true;
}
