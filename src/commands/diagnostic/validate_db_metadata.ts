/**
 * `validateDBMetadata`: which stored metadata would break a client of a given API version, as
 * mongod 8.2 answers it (validate_db_metadata_cmd.cpp, validate_db_metadata.idl): for each
 * database (`db`, or all of them) and each collection (`collection`, or all of them), with
 * `apiParameters: { version: '1', strict: true }`, every index that API version 1 does not
 * allow (text and geoHaystack indexes, sparse indexes: `isIndexAllowedInAPIVersion1`) is one
 * `{ ns, code: 323, codeName: 'APIStrictError', errmsg }` of `apiVersionErrors`. Mayfly's
 * validators and view pipelines hold nothing outside API version 1 that it checks, so they add
 * no error. Strict IDL arguments; no writeConcern; only the local read concern.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { isDocument } from '../../storage/values/paths.js';
import { checkOptionalBool, typeMismatch } from '../args.js';
import type { ArgRule, CommandDefinition } from '../types.js';
import type { Collection } from '../../storage/collection.js';

/** A `string` field of the IDL (null reads as absent). */
const stringField: ArgRule = {
  type: 'string',
  parse(value, field, idl) {
    if (value !== null && typeof value !== 'string') throw typeMismatch(`${idl}.${field}`, value, ['string']);
  },
};

/** `APIParamsForCmd` (strict): `version` (string, required), `strict` and `deprecationErrors` (optionalBool). */
interface ApiParams {
  readonly version: string;
  readonly strict: boolean;
}

function parseApiParams(value: unknown): ApiParams {
  if (value === undefined || value === null) {
    throw new CommandError('IDLFailedToParse', "BSON field 'validateDBMetadata.apiParameters' is missing but a required field");
  }
  if (!isDocument(value)) throw typeMismatch('validateDBMetadata.apiParameters', value, ['object']);
  let version: string | undefined;
  let strict = false;
  for (const [field, v] of Object.entries(value)) {
    switch (field) {
      case 'version':
        if (v === null) break;
        if (typeof v !== 'string') throw typeMismatch('validateDBMetadata.apiParameters.version', v, ['string']);
        version = v;
        break;
      case 'strict':
        strict = checkOptionalBool(field, v) ?? false;
        break;
      case 'deprecationErrors':
        checkOptionalBool(field, v);
        break;
      default:
        throw new CommandError('IDLUnknownField', `BSON field 'validateDBMetadata.apiParameters.${field}' is an unknown field.`);
    }
  }
  if (version === undefined) throw new CommandError('IDLFailedToParse', "BSON field 'validateDBMetadata.apiParameters.version' is missing but a required field");
  return { version, strict };
}

/** The `db` argument's checks (mongod's DatabaseName, then DatabaseHolder::getDb's 13280). */
function checkDbName(db: string): void {
  if (db.length === 0) throw new CommandError(28539, 'Invalid empty database name');
  if (db.includes('\0')) throw new CommandError('InvalidNamespace', `Invalid database name: ${db}`);
  if (db.includes('.')) throw new CommandError('InvalidNamespace', `Invalid database name: ${db}`);
  if (Buffer.byteLength(db) > 63) throw new CommandError('InvalidNamespace', `db name must be at most 63 characters, found: ${Buffer.byteLength(db)}`);
  if (/[/\\ "]/.test(db)) throw new CommandError(13280, `invalid db name: ${db}`);
}

/** The `collection` argument's checks (a valid collection part of a namespace). */
function checkCollectionName(db: string, coll: string): void {
  if (coll.length === 0 || coll.startsWith('.') || coll.includes('\0')) {
    throw new CommandError('InvalidNamespace', `Invalid namespace specified '${db}.${coll}'`);
  }
}

/** `index_key_validate::isIndexAllowedInAPIVersion1`. */
function allowedInApiVersion1(spec: Document): boolean {
  if (spec.sparse === true || (typeof spec.sparse === 'number' && spec.sparse !== 0)) return false;
  const key = spec.key;
  if (!isDocument(key)) return true;
  return !Object.values(key).some((v) => v === 'text' || v === 'geoHaystack');
}

/** The `validateDBMetadata` command. */
export const validateDBMetadata: CommandDefinition = {
  name: 'validateDBMetadata',
  args: {
    db: stringField,
    collection: stringField,
    apiParameters: { type: 'any', parse: () => undefined },
  },
  concerns: { readConcern: 'localOnly', writeConcern: false },
  help:
    "validateDBMetadata checks that the stored metadata of a database/collection is valid within a particular API version. If 'db' parameter is specified, only runs validation against that database, if not the validation will be run againt all dbs. Similarly if 'collection' parameter is specified, the validation is only run against that collection, if not the validation is run against all collections.",
  run(ctx, cmd) {
    const api = parseApiParams(cmd.apiParameters);
    const db = typeof cmd.db === 'string' ? cmd.db : undefined;
    const collection = typeof cmd.collection === 'string' ? cmd.collection : undefined;
    if (db !== undefined) checkDbName(db);
    if (collection !== undefined) checkCollectionName(db ?? ctx.db, collection);
    const catalog = ctx.server.catalog;
    const apiVersionErrors: Document[] = [];
    const validate = (coll: Collection): void => {
      if (!(api.strict && api.version === '1')) return;
      for (const spec of coll.indexSpecs()) {
        if (allowedInApiVersion1(spec)) continue;
        apiVersionErrors.push({
          ns: coll.ns,
          code: 323,
          codeName: 'APIStrictError',
          errmsg: `The index with name ${String(spec.name)} is not allowed in API version 1.`,
        });
      }
    };
    for (const name of db !== undefined ? [db] : catalog.databaseNames()) {
      if (collection !== undefined) {
        const coll = catalog.get(name, collection);
        if (coll) validate(coll);
        continue;
      }
      for (const coll of catalog.collections(name)) validate(coll);
    }
    return { apiVersionErrors };
  },
};
