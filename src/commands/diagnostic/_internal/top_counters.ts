/**
 * The per-namespace usage counters that `top` reports (mongod's `Top`): for each collection, how
 * many operations of each kind ran on it and for how long (microseconds), and the read or write
 * lock they held. Dispatch records every command that names a collection once it has answered.
 */
import type { Document } from '../../../bson/library.js';
import type { ServerServices } from '../../../server/services.js';
import { monotonicMs } from '../../../ttl/clock.js';

/** One counter: operations and their time (µs). */
interface UsageCounter {
  time: number;
  count: number;
}

/** The counters of one namespace, in the order `top` lists them. */
export const TOP_FIELDS = ['total', 'readLock', 'writeLock', 'queries', 'getmore', 'insert', 'update', 'remove', 'commands'] as const;
type TopField = (typeof TOP_FIELDS)[number];
type NamespaceUsage = Record<TopField, UsageCounter>;

type Kind = 'queries' | 'getmore' | 'insert' | 'update' | 'remove' | 'commands';
/** The commands counted, by name: their kind and the lock they take. */
const RECORDED: ReadonlyMap<string, { kind: Kind; lock: 'readLock' | 'writeLock' }> = new Map([
  ['find', { kind: 'queries', lock: 'readLock' }],
  ['getMore', { kind: 'getmore', lock: 'readLock' }],
  ['insert', { kind: 'insert', lock: 'writeLock' }],
  ['update', { kind: 'update', lock: 'writeLock' }],
  ['delete', { kind: 'remove', lock: 'writeLock' }],
  ['aggregate', { kind: 'commands', lock: 'readLock' }],
  ['count', { kind: 'commands', lock: 'readLock' }],
  ['distinct', { kind: 'commands', lock: 'readLock' }],
  ['listIndexes', { kind: 'commands', lock: 'readLock' }],
  ['collStats', { kind: 'commands', lock: 'readLock' }],
  ['validate', { kind: 'commands', lock: 'readLock' }],
  ['findAndModify', { kind: 'commands', lock: 'writeLock' }],
  ['create', { kind: 'commands', lock: 'writeLock' }],
  ['createIndexes', { kind: 'commands', lock: 'writeLock' }],
  ['dropIndexes', { kind: 'commands', lock: 'writeLock' }],
  ['collMod', { kind: 'commands', lock: 'writeLock' }],
]);

const USAGE = new WeakMap<ServerServices, Map<string, NamespaceUsage>>();

/** The usage table of `server`. */
export function topUsage(server: ServerServices): Map<string, NamespaceUsage> {
  let table = USAGE.get(server);
  if (table === undefined) {
    table = new Map();
    USAGE.set(server, table);
  }
  return table;
}

/** The time a command starts, for `recordTop` (ms, monotonic). */
export const topStart = monotonicMs;

/** Records a command named `name` (canonical) that ran on `db` from `startedMs` to now. */
export function recordTop(server: ServerServices, name: string, db: string, body: Document, startedMs: number): void {
  const entry = RECORDED.get(name);
  if (entry === undefined) {
    if (name === 'drop' || name === 'dropDatabase') forgetDropped(server, name, db, body);
    return;
  }
  const coll = name === 'getMore' ? body.collection : firstValue(body);
  if (typeof coll !== 'string' || coll === '') return;
  const ns = `${db}.${coll}`;
  const table = topUsage(server);
  let usage = table.get(ns);
  if (usage === undefined) {
    usage = Object.fromEntries(TOP_FIELDS.map((f) => [f, { time: 0, count: 0 }])) as NamespaceUsage;
    table.set(ns, usage);
  }
  // mongod counts whole microseconds, at least one for an operation that ran.
  const micros = Math.max(1, Math.round((monotonicMs() - startedMs) * 1000));
  for (const field of ['total', entry.lock, entry.kind] as const) {
    usage[field].time += micros;
    usage[field].count += 1;
  }
}

/** A dropped collection's counters go with it (mongod's `Top::collectionDropped`); a dropped database's too. */
function forgetDropped(server: ServerServices, name: string, db: string, body: Document): void {
  const table = topUsage(server);
  if (name === 'drop') {
    const coll = firstValue(body);
    if (typeof coll === 'string' && server.catalog.get(db, coll) === undefined) table.delete(`${db}.${coll}`);
    return;
  }
  if (server.catalog.collections(db).length > 0) return;
  for (const ns of [...table.keys()]) if (ns.startsWith(`${db}.`)) table.delete(ns);
}

function firstValue(doc: Document): unknown {
  for (const key in doc) return doc[key];
  return undefined;
}
