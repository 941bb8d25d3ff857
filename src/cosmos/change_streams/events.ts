/**
 * The events of a change stream in Cosmos DB mode: the hooks `openChangeStream` gives the stream
 * (`ChangeStreamPorts.shape` and `invalidated`) and runs on what the stages hand out (`finish`).
 *
 * - `changeStreamEvents` (Microsoft's page, "Current limitations"): only `insert`, `update` and
 *   `replace` reach the stages (no `delete`, so no TTL expiry, and no other event); as the latest
 *   version feed has them ("Change feed modes in Azure Cosmos DB": "You get the latest version of
 *   each item"; "when an item is deleted, it's no longer available in the feed"), an event's
 *   `fullDocument` is the document as it is when the stream reads it, and an event of a document
 *   gone by then (deleted, expired) is not shown; the events handed out carry no `operationType`
 *   and no `updateDescription` ("not yet supported in the output document"). The stages still see
 *   `operationType`, so that the page's required `$match: {operationType: {$in: [...]}}` selects
 *   as it does there.
 * - With the capability `AllVersionsAndDeletesChangeFeed` (the all versions and deletes change
 *   feed, which Fabric mirroring reads: "Change feed modes in Azure Cosmos DB"): every change in
 *   order, deletes included, and the reaper's TTL deletions as deletes ("Deletes from TTL
 *   expirations are also captured ... when the item is purged"); an update's `fullDocument` is
 *   the version that update wrote; events keep `operationType` and carry the feed's `metadata`:
 *   `operationType` ('create', 'replace' or 'delete'), `lsn` (the commit's position, shared by the
 *   changes of one commit), `crts` (its time in seconds, as `_ts`) and, on a delete,
 *   `timeToLiveExpired` (true for a TTL expiry).
 * - `changeStreamNamespaceNotFound` (the page, "Error handling"): a drop or rename of the watched
 *   collection answers 26 NamespaceNotFound instead of an `invalidate` event.
 */
import { Long, type Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import type { ChangeEntry, ChangeKind } from '../../storage/change_log.js';
import type { CosmosSettings } from '../settings.js';

/** The message of 26 for the collection `ns` (the page gives none: Mayfly's). */
export function namespaceNotFoundMessage(ns: string): string {
  return `Collection '${ns}' not found.`;
}

/** True when the account reads the all versions and deletes change feed. */
export function allVersionsAndDeletes(settings: CosmosSettings): boolean {
  return settings.capabilities.has('AllVersionsAndDeletesChangeFeed');
}

/** The hooks of a Cosmos DB change stream (each absent when its rule is off). */
export interface CosmosChangeStreamHooks {
  /** The event the stages see, or undefined: the stream skips it. */
  readonly shape?: (entry: ChangeEntry, event: Document) => Document | undefined;
  /** An event as the stream hands it out, after the stages. */
  readonly finish?: (doc: Document) => Document;
  /** The error a drop or rename of the watched collection answers. */
  readonly invalidated?: (entry: ChangeEntry) => Error;
}

/** The changes of the latest version feed. */
const LATEST_VERSION_KINDS: ReadonlySet<ChangeKind> = new Set(['insert', 'update', 'replace']);
/** The changes of the all versions and deletes feed. */
const ALL_VERSIONS_KINDS: ReadonlySet<ChangeKind> = new Set(['insert', 'update', 'replace', 'delete']);
/** The feed's `metadata.operationType` of each change (Cosmos DB writes a whole item: an update is a replace). */
const FEED_OPERATION: Partial<Record<ChangeKind, string>> = { insert: 'create', update: 'replace', replace: 'replace', delete: 'delete' };

/** The current document of `documentKey` in `db.coll`, or null (gone, or expired). */
export type DocumentLookup = (db: string, coll: string, documentKey: Document) => Document | null;

/** The hooks `settings` switch on (`lookup` reads the latest version of a document). */
export function cosmosChangeStreamHooks(settings: CosmosSettings, lookup: DocumentLookup): CosmosChangeStreamHooks {
  const hooks: { -readonly [K in keyof CosmosChangeStreamHooks]: CosmosChangeStreamHooks[K] } = {};
  if (settings.rules.changeStreamEvents) {
    const all = allVersionsAndDeletes(settings);
    hooks.shape = all ? allVersionsEvent : (entry, event) => latestVersionEvent(entry, event, lookup);
    const hidden = all ? ['updateDescription'] : ['operationType', 'updateDescription'];
    hooks.finish = (doc) => without(doc, hidden);
  }
  if (settings.rules.changeStreamNamespaceNotFound) {
    hooks.invalidated = (entry) => new CommandError('NamespaceNotFound', namespaceNotFoundMessage(`${entry.db}.${entry.coll ?? ''}`));
  }
  return hooks;
}

/** The latest version feed: inserts, updates and replacements of documents still there, as they are now. */
function latestVersionEvent(entry: ChangeEntry, event: Document, lookup: DocumentLookup): Document | undefined {
  if (!LATEST_VERSION_KINDS.has(entry.kind) || entry.coll === undefined || entry.documentKey === undefined) return undefined;
  // An update's `fullDocument` was looked up already (`updateLookup`); an insert's or replacement's is what it wrote.
  const current = entry.kind === 'update' && Object.hasOwn(event, 'fullDocument') ? (event.fullDocument as Document | null) : lookup(entry.db, entry.coll, entry.documentKey);
  if (current === null) return undefined;
  return event.fullDocument === current ? event : { ...event, fullDocument: current };
}

/** The all versions and deletes feed: every change, with the feed's metadata. */
function allVersionsEvent(entry: ChangeEntry, event: Document): Document | undefined {
  if (!ALL_VERSIONS_KINDS.has(entry.kind)) return undefined;
  const out: Document = { ...event };
  if (entry.kind === 'update' && entry.after !== undefined) out.fullDocument = entry.after;
  const metadata: Document = {
    operationType: FEED_OPERATION[entry.kind],
    lsn: Long.fromBits(entry.clusterTime.low, entry.clusterTime.high),
    crts: Math.floor(entry.wallTimeMs / 1000),
  };
  if (entry.kind === 'delete') metadata.timeToLiveExpired = entry.cause === 'ttl';
  out.metadata = metadata;
  return out;
}

/** `doc` without the fields `names` (the others in their order). */
function without(doc: Document, names: readonly string[]): Document {
  if (!names.some((n) => Object.hasOwn(doc, n))) return doc;
  const out: Document = {};
  for (const [k, v] of Object.entries(doc)) if (!names.includes(k)) out[k] = v;
  return out;
}
