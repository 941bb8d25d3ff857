/**
 * `renameCollection`: moves a collection to another name (or database), as mongod 8.2 does
 * (rename_collection.idl, rename_collection_cmd.cpp, catalog/rename_collection.cpp):
 *   - `renameCollection` and `to` are namespace strings (null is missing: 40414); `dropTarget`
 *     is a boolean or the UUID the target must have (which drops it; 207 for a Binary that is
 *     no UUID); `stayTemp` a boolean; `collectionUUID` the UUID the source must have;
 *   - a namespace mongod cannot form is 73; one a client may not write (a `$`, a system
 *     collection, more than 255 bytes) or an oplog is 20, as are `admin.system.version` and
 *     renaming to itself; a target database that differs from an existing one only in case is
 *     13297;
 *   - a UUID that does not match (or names no collection) is 361, before the source is looked
 *     up; a UUID `dropTarget` across databases is 72;
 *   - a view is 166, a missing source 26, an existing target without `dropTarget` 48.
 */
import { Binary, type Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import type { Collection } from '../../storage/collection.js';
import { IdlRules, typeMismatch } from '../args.js';
import type { ArgRule, CommandDefinition } from '../types.js';

const MAX_NAMESPACE_BYTES = 255;
const MAX_DB_NAME_BYTES = 63;

/** A `namespacestring` field: a string; null is missing (40414). */
function namespaceField(): ArgRule {
  return {
    type: 'string',
    required: true,
    parse(value, field, idl) {
      if (value === null) throw new CommandError('IDLFailedToParse', `BSON field '${idl}.${field}' is missing but a required field`);
      if (typeof value !== 'string') throw typeMismatch(`${idl}.${field}`, value, ['string']);
    },
  };
}

/** The hex of a UUID Binary: 14 for another type (or, `variant` false, another subtype), 207 for a bad length or (variant) subtype. */
function uuidHex(path: string, value: unknown, variant: boolean): string {
  if (!(value instanceof Binary)) throw typeMismatch(path, value, variant ? ['bool', 'binData'] : ['binData']);
  if (value.sub_type !== Binary.SUBTYPE_UUID) {
    if (variant) throw new CommandError('InvalidUUID', 'uuid must be a 16-byte binary field with UUID (4) subtype');
    throw new CommandError('TypeMismatch', `BSON field '${path}' is the wrong binData type, expected type 'UUID' (subtype 4)`);
  }
  if (value.position !== 16) throw new CommandError('InvalidUUID', 'uuid must be a 16-byte binary field with UUID (4) subtype');
  return Buffer.from(value.buffer.subarray(0, 16)).toString('hex');
}

interface Namespace {
  readonly db: string;
  readonly coll: string;
  readonly ns: string;
}

function splitNamespace(ns: string): Namespace {
  const dot = ns.indexOf('.');
  if (dot <= 0 || dot === ns.length - 1) throw new CommandError('InvalidNamespace', `Invalid namespace specified '${ns}'`);
  return { db: ns.slice(0, dot), coll: ns.slice(dot + 1), ns };
}

/** `NamespaceString::isValid` (a `$` allowed in the database name). */
function isValidNamespace(n: Namespace): boolean {
  if (n.db.length === 0 || Buffer.byteLength(n.db) > MAX_DB_NAME_BYTES || /[/\\. "\0]/.test(n.db)) return false;
  return n.coll.length > 0 && !n.coll.startsWith('.') && !n.coll.includes('\0');
}

/** What `userAllowedWriteNS` refuses of `n` (undefined: allowed), with mongod's reasons. */
function writeRefusal(n: Namespace): string | undefined {
  if (n.coll === 'system.profile') return `cannot write to '${n.ns}'`;
  if (n.db.includes('$')) return `Invalid namespace specified '${n.ns}'`;
  if (n.coll.includes('$')) return `Invalid collection name specified '${n.ns}'`;
  if (n.coll.startsWith('system.') && !n.coll.startsWith('system.buckets.')) return `Invalid system namespace: ${n.ns}`;
  if (Buffer.byteLength(n.ns) > MAX_NAMESPACE_BYTES) return `Fully qualified namespace is too long. Namespace: ${n.ns} Max: ${MAX_NAMESPACE_BYTES}`;
  return undefined;
}

function isOplog(n: Namespace): boolean {
  return n.db === 'local' && n.coll.startsWith('oplog.');
}

/** 361: the collection `n` (or none) is not the one of UUID `expectedHex`. */
function uuidMismatch(n: Namespace, expectedHex: string, actual: Collection | undefined): CommandError {
  const uuid = new Binary(Buffer.from(expectedHex, 'hex'), Binary.SUBTYPE_UUID);
  return new CommandError('CollectionUUIDMismatch', 'Collection UUID does not match that specified', {
    db: n.db,
    collectionUUID: uuid,
    expectedCollection: n.coll,
    actualCollection: actual ? actual.name : null,
  });
}

function hexOf(coll: Collection): string {
  return coll.uuid.toHexString(false);
}

/** The `renameCollection` command. */
export const renameCollection: CommandDefinition = {
  name: 'renameCollection',
  adminOnly: true,
  target: namespaceField(),
  args: {
    to: namespaceField(),
    dropTarget: {
      type: ['bool', 'any'],
      parse(value, field, idl) {
        if (typeof value !== 'boolean') uuidHex(`${idl}.${field}`, value, true);
      },
    },
    stayTemp: IdlRules.bool,
    collectionUUID: {
      type: 'any',
      parse(value, field, idl) {
        if (value !== null) uuidHex(`${idl}.${field}`, value, false);
      },
    },
  },
  concerns: { readConcern: 'localOnly', writeConcern: true },
  help: ' example: { renameCollection: foo.a, to: bar.b }',
  run(ctx, cmd) {
    const from = splitNamespace(cmd.renameCollection as string);
    const to = splitNamespace(cmd.to as string);
    if (from.ns === to.ns) throw new CommandError('IllegalOperation', "Can't rename a collection to itself");
    const dropTargetUuid = cmd.dropTarget instanceof Binary ? uuidHex('renameCollection.dropTarget', cmd.dropTarget, true) : undefined;
    const dropTarget = cmd.dropTarget === true || dropTargetUuid !== undefined;
    const sourceUuid = cmd.collectionUUID instanceof Binary ? uuidHex('renameCollection.collectionUUID', cmd.collectionUUID, false) : undefined;
    if (!isValidNamespace(from)) throw new CommandError('InvalidNamespace', `Invalid source namespace: ${from.ns}`);
    if (!isValidNamespace(to)) throw new CommandError('InvalidNamespace', `Invalid target namespace: ${to.ns}`);
    if (isOplog(from)) throw new CommandError('IllegalOperation', "can't rename live oplog while replicating");
    if (isOplog(to)) throw new CommandError('IllegalOperation', "can't rename to live oplog while replicating");
    const sourceRefusal = writeRefusal(from);
    if (sourceRefusal !== undefined) throw new CommandError('IllegalOperation', `error with source namespace: ${sourceRefusal}`);
    const targetRefusal = writeRefusal(to);
    if (targetRefusal !== undefined) throw new CommandError('IllegalOperation', `error with target namespace: ${targetRefusal}`);
    if (from.db === 'admin' && from.coll === 'system.version') {
      throw new CommandError('IllegalOperation', 'renaming the server configuration collection (admin.system.version) is not allowed');
    }
    if (dropTargetUuid !== undefined && from.db !== to.db) {
      throw new CommandError('InvalidOptions', 'Cannot provide an expected target collection UUID when renaming between databases');
    }
    const catalog = ctx.server.catalog;
    const sameCase = catalog.databaseNames().find((db) => db !== to.db && db.toLowerCase() === to.db.toLowerCase());
    if (sameCase !== undefined && !catalog.databaseNames().includes(to.db)) {
      throw new CommandError('DatabaseDifferCase', `db already exists with different case already have: [${sameCase}] trying to create [${to.db}]`);
    }
    const source = catalog.get(from.db, from.coll);
    const target = catalog.get(to.db, to.coll);
    if (sourceUuid !== undefined && (!source || hexOf(source) !== sourceUuid)) throw uuidMismatch(from, sourceUuid, source);
    if (dropTargetUuid !== undefined && (!target || hexOf(target) !== dropTargetUuid)) throw uuidMismatch(to, dropTargetUuid, target);
    if (!source) {
      if (catalog.view(from.db, from.coll)) throw new CommandError('CommandNotSupportedOnView', `cannot rename view: ${from.ns}`);
      throw new CommandError('NamespaceNotFound', `Source collection ${from.ns} does not exist`);
    }
    if (!target && catalog.view(to.db, to.coll)) throw new CommandError('NamespaceExists', `a view already exists with that name: ${to.ns}`);
    if (target) {
      if (!dropTarget) throw new CommandError('NamespaceExists', 'target namespace exists');
      ctx.server.cursors.killNamespace(target.ns);
    }
    ctx.server.cursors.killNamespace(source.ns, 'collection renamed');
    // The target goes as part of the rename, as in mongod: one rename event (oplog entry) whose
    // dropTarget is the replaced collection's UUID, no drop event of its own.
    const moved = catalog.rename(source, to.db, to.coll, { dropTarget: target !== undefined });
    if (cmd.stayTemp !== true && moved.options.temp !== undefined) {
      const { temp: _temp, ...rest } = moved.options as Document;
      moved.options = rest;
    }
    return {};
  },
};
