/**
 * The logical session cache of one server (mongod's LogicalSessionCache on a standalone):
 * every command that carries an `lsid` marks that session used; `endSessions` forgets them;
 * sessions idle for longer than the session timeout are dropped. `$listLocalSessions` reads it.
 * Records have mongod's shape: `{ _id: { id, uid }, lastUse }`, where `uid` is the SHA-256 of
 * the (empty) user name since there is no authentication.
 */
import { createHash } from 'node:crypto';
import { Binary, type Document } from '../../bson/library.js';
import { bsonTypeOf } from '../../storage/values/bson_type.js';
import { LOGICAL_SESSION_TIMEOUT_MINUTES } from '../handshake/hello_reply.js';

/** mongod's digest of "no authenticated user": SHA-256 of the empty string. */
export const NO_AUTH_USER_DIGEST = new Binary(createHash('sha256').update('').digest(), 0);

const TIMEOUT_MS = LOGICAL_SESSION_TIMEOUT_MINUTES * 60 * 1000;

interface SessionRecord {
  id: Binary;
  lastUseMs: number;
}

/** One server's sessions by hex id, and the one touched last (drivers reuse a session). */
interface SessionCache {
  readonly byId: Map<string, SessionRecord>;
  last: SessionRecord | undefined;
}

const caches = new WeakMap<object, SessionCache>();
/** The server asked about last and its cache (one server per process is the rule). */
let lastServer: object | undefined;
let lastCache: SessionCache | undefined;

function cacheOf(server: object): SessionCache {
  if (server === lastServer) return lastCache!;
  let cache = caches.get(server);
  if (!cache) {
    cache = { byId: new Map(), last: undefined };
    caches.set(server, cache);
  }
  lastServer = server;
  lastCache = cache;
  return cache;
}

function sessionId(lsid: unknown): Binary | undefined {
  if (bsonTypeOf(lsid) !== 'object') return undefined;
  const id = (lsid as Document).id;
  return id instanceof Binary ? id : undefined;
}

function prune(cache: SessionCache, nowMs: number): void {
  for (const [key, rec] of cache.byId) if (nowMs - rec.lastUseMs > TIMEOUT_MS) cache.byId.delete(key);
  cache.last = undefined;
}

function sameBytes(a: Binary, b: Binary): boolean {
  if (a.position !== b.position || a.sub_type !== b.sub_type) return false;
  for (let i = 0; i < a.position; i++) if (a.buffer[i] !== b.buffer[i]) return false;
  return true;
}

/** Marks the session of a command's `lsid` as used now. */
export function touchSession(server: object, lsid: unknown, nowMs: number): void {
  const id = sessionId(lsid);
  if (!id) return;
  const cache = cacheOf(server);
  if (cache.last && sameBytes(cache.last.id, id)) {
    cache.last.lastUseMs = nowMs;
    return;
  }
  const key = id.toString('hex');
  let rec = cache.byId.get(key);
  if (rec) rec.lastUseMs = nowMs;
  else {
    if (cache.byId.size % 1024 === 1023) prune(cache, nowMs);
    rec = { id, lastUseMs: nowMs };
    cache.byId.set(key, rec);
  }
  cache.last = rec;
}

/** Forgets the sessions listed in an `endSessions` command. */
export function endLocalSessions(server: object, lsids: unknown): void {
  if (!Array.isArray(lsids)) return;
  const cache = cacheOf(server);
  cache.last = undefined;
  for (const lsid of lsids) {
    const id = sessionId(lsid);
    if (id) cache.byId.delete(id.toString('hex'));
  }
}

/** The cached sessions as `$listLocalSessions` returns them (all belong to the no-auth user). */
export function localSessionRecords(server: object, nowMs: number): Document[] {
  const cache = cacheOf(server);
  prune(cache, nowMs);
  return [...cache.byId.values()].map((rec) => ({ _id: { id: rec.id, uid: NO_AUTH_USER_DIGEST }, lastUse: new Date(rec.lastUseMs) }));
}
