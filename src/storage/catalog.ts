/**
 * The in-memory catalog: databases and their collections. A database exists while it holds at
 * least one collection, as in mongod. Each server instance owns one catalog. Views are kept as
 * mongod keeps them, as documents of the database's `system.views` collection (`views.ts`); a
 * name is either a collection or a view, never both. The catalog owns the write path
 * (`write/write_unit.ts`): its collections record every change there, and it tells the observers
 * of every DDL change (create, drop, rename, createIndexes, dropIndexes, collMod, dropDatabase).
 */
import type { Document } from '../bson/library.js';
import { CommandError } from '../errors/command_error.js';
import { Collection } from './collection.js';
import { validateCollectionName, validateDbName, viewNotCollectionError } from './values/namespace.js';
import { keyString } from './values/key_string.js';
import { SYSTEM_VIEWS, viewDocument, viewFromDocument, type ViewDefinition } from './views.js';
import { DETACHED_WRITES as DETACHED, WritePath } from './write/write_unit.js';

/**
 * Called the moment a collection object comes to be, before any write reaches it, so that the
 * TTL engine can install a row model (versioned collections). What happens to collections after
 * that is told to the write path's observers (`writes.observers`).
 */
export interface CatalogListener {
  collectionCreated?(coll: Collection): void;
}

/**
 * The DDL of a transaction's statement (set as `Catalog.transactionDdl` while it runs): a
 * collection it creates and the indexes it builds are told here instead of to the observers,
 * who hear of them when the transaction commits (sessions/transaction.ts). Outside that
 * statement its collections are out of the catalog (`attach`/`detach`).
 */
export interface TransactionDdl {
  collectionCreated(coll: Collection, options: Document): void;
  indexesCreated(coll: Collection, specs: readonly Document[]): void;
  /** True for a collection this transaction created. */
  createdHere(coll: Collection): boolean;
}

/** Options of `Catalog.rename`. */
export interface RenameOptions {
  /** Drop an existing collection of the target name (renameCollection's `dropTarget`, `$out`). */
  readonly dropTarget?: boolean;
}

/** Databases → collections. */
export class Catalog {
  private readonly dbs = new Map<string, Map<string, Collection>>();
  private readonly listeners: CatalogListener[] = [];
  /** The one write path of this catalog's collections, with its observers. */
  readonly writes = new WritePath();
  /** While a transaction's statement runs: where its DDL goes (see TransactionDdl). */
  transactionDdl: TransactionDdl | null = null;

  /** Registers a listener for collection creation. */
  addListener(listener: CatalogListener): void {
    this.listeners.push(listener);
  }

  /** Database names that hold collections, sorted. */
  databaseNames(): string[] {
    return [...this.dbs.entries()].filter(([, c]) => c.size > 0).map(([n]) => n).sort();
  }

  /** The collections of `db` in creation order. */
  collections(db: string): Collection[] {
    return [...(this.dbs.get(db)?.values() ?? [])];
  }

  /** The collection `db.name`, if it exists. */
  get(db: string, name: string): Collection | undefined {
    return this.dbs.get(db)?.get(name);
  }

  /** The collection `db.name`, or a NamespaceNotFound error with `message`. */
  require(db: string, name: string, message?: string): Collection {
    const coll = this.get(db, name);
    if (!coll) throw new CommandError('NamespaceNotFound', message ?? `ns not found ${db}.${name}`);
    return coll;
  }

  /** Creates `db.name` (validated); throws 48 NamespaceExists when it exists (as a view too). */
  create(db: string, name: string, options: Document = {}): Collection {
    validateDbName(db);
    validateCollectionName(db, name);
    if (this.get(db, name)) throw new CommandError('NamespaceExists', `Collection ${db}.${name} already exists.`);
    if (this.view(db, name)) throw new CommandError('NamespaceExists', `A view already exists. NS: ${db}.${name}`);
    return this.add(db, name, options);
  }

  /**
   * The collection `db.name`, created implicitly (as a first insert or createIndexes does);
   * 166 CommandNotSupportedOnView when the name is a view.
   */
  getOrCreate(db: string, name: string): { coll: Collection; created: boolean } {
    const existing = this.get(db, name);
    if (existing) return { coll: existing, created: false };
    validateDbName(db);
    validateCollectionName(db, name, true);
    if (this.view(db, name)) throw viewNotCollectionError(db, name);
    return { coll: this.add(db, name, {}), created: true };
  }

  // ---- views ------------------------------------------------------------------------------

  /** The view `db.name`, if one is defined (read from `db.system.views`). */
  view(db: string, name: string): ViewDefinition | undefined {
    const rec = this.get(db, SYSTEM_VIEWS)?.rawGet(keyString(`${db}.${name}`));
    return rec ? viewFromDocument(db, rec.doc) : undefined;
  }

  /** The views of `db`, in definition order. */
  views(db: string): ViewDefinition[] {
    const holder = this.get(db, SYSTEM_VIEWS);
    if (!holder) return [];
    const out: ViewDefinition[] = [];
    for (const rec of holder.allRecords()) {
      const def = viewFromDocument(db, rec.doc);
      if (def) out.push(def);
    }
    return out;
  }

  /** Throws 166 when `db.name` is a view (for commands that need a collection and found none). */
  assertNotView(db: string, name: string): void {
    if (this.view(db, name)) throw viewNotCollectionError(db, name);
  }

  /**
   * Stores a view definition (already checked), creating `db.system.views` when needed, or
   * replaces the definition of that name.
   */
  putView(def: ViewDefinition, nowMs: number): void {
    validateDbName(def.db);
    validateCollectionName(def.db, def.name);
    this.writes.run(() => {
      const holder = this.get(def.db, SYSTEM_VIEWS) ?? this.add(def.db, SYSTEM_VIEWS, {});
      const doc = viewDocument(def);
      const rec = holder.rawGet(keyString(doc._id));
      if (rec) holder.update(rec, doc, nowMs, null, undefined, 'replace');
      else holder.insert(doc, nowMs);
    });
  }

  /** Removes the view `db.name`; false when there is none. */
  dropView(db: string, name: string): boolean {
    const holder = this.get(db, SYSTEM_VIEWS);
    const rec = holder?.rawGet(keyString(`${db}.${name}`));
    return rec !== undefined && holder!.remove(rec);
  }

  /** Removes `db.name`; false when it did not exist. */
  drop(db: string, name: string): boolean {
    const colls = this.dbs.get(db);
    const coll = colls?.get(name);
    if (!colls || !coll) return false;
    this.remove(coll);
    this.writes.ddl('onDropCollection', { ns: coll.ns, collection: coll });
    return true;
  }

  /** Takes `coll` out of the catalog and empties it, telling no one. */
  private remove(coll: Collection): void {
    const colls = this.dbs.get(coll.db)!;
    colls.delete(coll.name);
    if (colls.size === 0) this.dbs.delete(coll.db);
    coll.clear();
    coll.writes = DETACHED;
  }

  /** Removes every collection of `db`; returns whether it existed. */
  dropDatabase(db: string): boolean {
    const colls = this.dbs.get(db);
    if (!colls) return false;
    for (const name of [...colls.keys()]) this.drop(db, name);
    this.dbs.delete(db);
    this.writes.ddl('onDropDatabase', { db });
    return true;
  }

  /**
   * Moves a collection to a new namespace (same or other database); with `dropTarget`, a
   * collection of that name is dropped as part of the rename (one rename event names it).
   */
  rename(from: Collection, toDb: string, toName: string, options: RenameOptions = {}): Collection {
    const fromNs = from.ns;
    const existing = this.get(toDb, toName);
    let droppedTarget: Collection | undefined;
    if (existing && options.dropTarget) {
      this.remove(existing);
      droppedTarget = existing;
    }
    const fromColls = this.dbs.get(from.db)!;
    fromColls.delete(from.name);
    if (fromColls.size === 0) this.dbs.delete(from.db);
    if (toDb === from.db) {
      from.name = toName;
      this.dbSet(toDb).set(toName, from);
      this.writes.ddl('onRenameCollection', { from: fromNs, to: from.ns, source: from, collection: from, droppedTarget });
      return from;
    }
    // Across databases: a new collection object holding the same documents and indexes, copied
    // as an internal move (its operations are `fromMigrate`).
    const moved = new Collection(toDb, toName, from.options);
    this.dbSet(toDb).set(toName, moved);
    moved.writes = this.writes;
    for (const l of this.listeners) l.collectionCreated?.(moved);
    this.writes.run(
      () => {
        for (const spec of from.indexSpecs().slice(1)) moved.addIndex(spec, 0);
        for (const rec of from.allRecords()) {
          // A versioned row moves with all its versions (its row model copies it).
          if (moved.rowModel) {
            moved.insertRecord(moved.rowModel.adopt(rec));
            continue;
          }
          moved.insert(rec.doc, rec.modifiedAtMs);
        }
      },
      { fromMigrate: true },
    );
    from.clear();
    from.writes = DETACHED;
    this.writes.ddl('onRenameCollection', { from: fromNs, to: moved.ns, source: from, collection: moved, droppedTarget });
    return moved;
  }

  // ---- DDL that the commands make on a collection -------------------------------------------

  /** Tells the observers that `specs` were built on `coll` (createIndexes, once all are built). */
  indexesCreated(coll: Collection, specs: readonly Document[]): void {
    if (specs.length === 0) return;
    if (this.transactionDdl !== null) this.transactionDdl.indexesCreated(coll, specs);
    else this.writes.ddl('onCreateIndexes', { ns: coll.ns, collection: coll, specs });
  }

  // ---- a transaction's collections ----------------------------------------------------------

  /**
   * Puts `coll`, which a transaction created, into the catalog as it is, telling no one (its
   * statements run, or it commits); false when the name is taken meanwhile.
   */
  attach(coll: Collection): boolean {
    const existing = this.get(coll.db, coll.name);
    if (existing !== undefined) return existing === coll;
    this.dbSet(coll.db).set(coll.name, coll);
    return true;
  }

  /** Takes `coll` (a transaction's) out of the catalog as it is, telling no one. */
  detach(coll: Collection): void {
    const colls = this.dbs.get(coll.db);
    if (colls?.get(coll.name) !== coll) return;
    colls.delete(coll.name);
    if (colls.size === 0) this.dbs.delete(coll.db);
  }

  /** Tells the observers that `specs` were dropped from `coll` (dropIndexes). */
  indexesDropped(coll: Collection, specs: readonly Document[]): void {
    if (specs.length > 0) this.writes.ddl('onDropIndexes', { ns: coll.ns, collection: coll, specs });
  }

  /** Tells the observers of a collMod of `coll` (`changes`: what its reply reports changed). */
  collectionModified(coll: Collection, changes: Document): void {
    this.writes.ddl('onCollMod', { ns: coll.ns, collection: coll, changes, options: coll.options });
  }

  private dbSet(db: string): Map<string, Collection> {
    let colls = this.dbs.get(db);
    if (!colls) this.dbs.set(db, (colls = new Map()));
    return colls;
  }

  private add(db: string, name: string, options: Document): Collection {
    const coll = new Collection(db, name, options);
    this.dbSet(db).set(name, coll);
    coll.writes = this.writes;
    for (const l of this.listeners) l.collectionCreated?.(coll);
    if (this.transactionDdl !== null) this.transactionDdl.collectionCreated(coll, options);
    else this.writes.ddl('onCreateCollection', { ns: coll.ns, collection: coll, options });
    return coll;
  }
}
