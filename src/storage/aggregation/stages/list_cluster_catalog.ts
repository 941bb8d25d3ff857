/**
 * `$listClusterCatalog` (document_source_list_cluster_catalog.cpp): one document per collection
 * and view, `{db, ns, type, options, info, idIndex?, sharded}` (listCollections' entries with
 * their namespace), of every database when run on `admin`, else of the database it runs on;
 * first stage of an `{aggregate: 1}` (9621301 on a collection), at read concern `local` only. Its specification is an object
 * (9621302 otherwise) of two booleans (14 otherwise, null included): `shards` adds the shards
 * holding each collection (none: a standalone has no shard), `balancingConfiguration` asks for a
 * sharded cluster's balancer settings (nothing to add here).
 */
import { CommandError } from '../../../errors/command_error.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { isDocument } from '../../values/paths.js';
import type { StageDefinition } from '../stage.js';

/** `{$listClusterCatalog: {shards?: bool, balancingConfiguration?: bool}}`. */
export const listClusterCatalog: StageDefinition = {
  name: '$listClusterCatalog',
  constraints: { stream: 'streaming', position: 'first', input: 'none', target: 'database', allowedIn: {}, readConcern: 'localOnly' },
  parse(spec, ctx) {
    if (!isDocument(spec)) throw new CommandError(9621302, `$listClusterCatalog must take a nested object but found: ${bsonTypeOf(spec)}`);
    for (const [key, value] of Object.entries(spec)) {
      if (key !== 'shards' && key !== 'balancingConfiguration') {
        throw new CommandError('IDLUnknownField', `BSON field '$listClusterCatalog.${key}' is an unknown field.`);
      }
      if (typeof value !== 'boolean') {
        throw new CommandError('TypeMismatch', `BSON field '$listClusterCatalog.${key}' is the wrong type '${bsonTypeOf(value)}', expected type 'bool'`);
      }
    }
    if (ctx.collection !== null) {
      throw new CommandError(9621301, '$listClusterCatalog must be run against the database with {aggregate: 1}, not a collection');
    }
    const shards = spec.shards === true;
    const server = ctx.runtime.server;
    return {
      *run() {
        for (const entry of server.catalogEntries()) yield shards ? { ...entry, shards: [] } : entry;
      },
    };
  },
};
