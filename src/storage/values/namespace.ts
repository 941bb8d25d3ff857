/**
 * Database and collection name validation, as mongod 8.2 does it (codes 73 InvalidNamespace).
 */
import { CommandError } from '../../errors/command_error.js';

/** Longest database name mongod accepts. */
export const MAX_DB_NAME_BYTES = 63;
/** Longest `db.collection` namespace mongod accepts. */
export const MAX_NAMESPACE_BYTES = 255;

const DB_FORBIDDEN = /[/\\. "$*<>:|?\0]/;

/** The system collections a client may create/read. */
const LEGAL_SYSTEM_COLLECTIONS = new Set(['system.views', 'system.profile', 'system.js', 'system.users', 'system.roles', 'system.version']);

/** Throws 73 unless `db` is a valid database name. */
export function validateDbName(db: string): void {
  if (db.length === 0) throw new CommandError('InvalidNamespace', 'Invalid empty database name');
  if (db.includes('\0')) throw new CommandError('InvalidNamespace', 'namespaces cannot have embedded null characters');
  if (DB_FORBIDDEN.test(db)) throw new CommandError('InvalidNamespace', `Invalid database name: '${db}'`);
  if (Buffer.byteLength(db) > MAX_DB_NAME_BYTES) {
    throw new CommandError('InvalidNamespace', `db name must be at most ${MAX_DB_NAME_BYTES} characters, found: ${Buffer.byteLength(db)}`);
  }
}

/** Throws 73 unless `coll` is a valid collection name in `db` (for create and writes). */
export function validateCollectionName(db: string, coll: string, forWrite = false): void {
  if (coll.length === 0) throw new CommandError('InvalidNamespace', `Invalid namespace specified '${db}.'`);
  if (coll.includes('\0')) throw new CommandError('InvalidNamespace', 'namespaces cannot have embedded null characters');
  if (coll.startsWith('.')) throw new CommandError('InvalidNamespace', `Collection names cannot start with '.': ${coll}`);
  if (coll.includes('$')) throw new CommandError('InvalidNamespace', `Invalid collection name: ${coll}`);
  if (coll.startsWith('system.')) {
    if (forWrite && (coll === 'system.views' || coll === 'system.profile')) {
      throw new CommandError('InvalidNamespace', `cannot write to ${db}.${coll}`);
    }
    if (!LEGAL_SYSTEM_COLLECTIONS.has(coll) && !coll.startsWith('system.buckets.')) {
      throw new CommandError('InvalidNamespace', `Invalid system namespace: ${db}.${coll}`);
    }
  }
  const ns = `${db}.${coll}`;
  if (Buffer.byteLength(ns) > MAX_NAMESPACE_BYTES) {
    throw new CommandError('InvalidNamespace', `Fully qualified namespace is too long. Namespace: ${ns} Max: ${MAX_NAMESPACE_BYTES}`);
  }
}

/** mongod's 166 for a command that needs a collection but got a view. */
export function viewNotCollectionError(db: string, name: string): CommandError {
  return new CommandError('CommandNotSupportedOnView', `Namespace ${db}.${name} is a view, not a collection`);
}
