/**
 * `createIndexes`: checks every spec (mongod's codes: 197, 67, 85, 86, …), then builds the new
 * indexes over the existing documents. A build that fails (a duplicate key, parallel arrays, an
 * array under a hashed field) leaves no index behind, and drops a collection it created. In a
 * transaction the build is part of it (see checkBuildInTransaction).
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { clusteredSpecOf, isClusterKey } from '../../storage/clustered.js';
import { checkIndexCapacity, matchExistingIndex, normaliseIndexSpec, removeUnknownIndexOptions } from '../../storage/indexes/index_spec.js';
import { IdlRules, collectionArg } from '../args.js';
import { cosmosCheckIndexBuild } from '../../cosmos/index_build.js';
import type { TransactionDdl } from '../../storage/catalog.js';
import type { Collection } from '../../storage/collection.js';
import type { CommandDefinition } from '../types.js';

/**
 * mongod's rules for building indexes in a transaction (4.4+): only on a collection the
 * transaction created (now, implicitly, or earlier) and only while it is empty (263 otherwise);
 * indexes that all exist already are no build, and fine anywhere.
 */
function checkBuildInTransaction(ddl: TransactionDdl, coll: Collection, created: boolean): void {
  if (created) return;
  if (!ddl.createdHere(coll)) {
    throw new CommandError('OperationNotSupportedInTransaction', `Cannot create new indexes on existing collection ${coll.ns} in a multi-document transaction.`);
  }
  if (coll.storedCount > 0) {
    throw new CommandError('OperationNotSupportedInTransaction', `Cannot create new indexes on non-empty collection ${coll.ns} in a multi-document transaction.`);
  }
}

/** The `createIndexes` command. */
export const createIndexes: CommandDefinition = {
  name: 'createIndexes',
  target: { type: 'string' },
  args: {
    indexes: IdlRules.arrayOfObjects(true),
    commitQuorum: { type: ['number', 'string'] },
    ignoreUnknownIndexOptions: IdlRules.safeBool,
    isTimeseriesNamespace: IdlRules.bool,
  },
  help: 'creates one or more indexes on a collection',
  run(ctx, cmd) {
    const name = collectionArg(cmd, 'createIndexes', ctx.db);
    const rawSpecs = cmd.indexes as unknown[];
    if (rawSpecs.length === 0) throw new CommandError('BadValue', 'Must specify at least one index to create');
    const ignoreUnknown = cmd.ignoreUnknownIndexOptions === true || (typeof cmd.ignoreUnknownIndexOptions === 'number' && cmd.ignoreUnknownIndexOptions !== 0);
    // An index without a collation inherits the collection's default collation.
    const defaultCollation = ctx.server.catalog.get(ctx.db, name)?.defaultCollation ?? null;
    const specs = rawSpecs.map((given) => {
      const raw = ignoreUnknown ? removeUnknownIndexOptions(given) : given;
      return ctx.server.ttl.checkIndexSpec(normaliseIndexSpec(raw, defaultCollation), raw as Document);
    });
    ctx.server.ttl.checkTtlIndexCount(specs, ctx.server.catalog.get(ctx.db, name)?.indexSpecs() ?? []);
    const { coll, created } = ctx.server.catalog.getOrCreate(ctx.db, name);
    // A clustered or time-series collection has no `_id_` index to count, and the cluster key covers `{_id: 1}`.
    const idIndexCount = coll.kind ? 0 : 1;
    const numIndexesBefore = coll.indexes.length + idIndexCount;
    const toBuild: Document[] = [];
    const built: string[] = [];
    try {
      for (const spec of specs) {
        if (clusteredSpecOf(coll.options) && isClusterKey(spec.key as Document)) continue;
        const existing = [...coll.indexSpecs(), ...toBuild];
        if (matchExistingIndex(spec, existing).kind === 'new') {
          checkIndexCapacity(spec, existing, coll.ns);
          toBuild.push(spec);
        }
      }
      if (toBuild.length > 0 && ctx.server.catalog.transactionDdl !== null) checkBuildInTransaction(ctx.server.catalog.transactionDdl, coll, created);
      const cosmos = ctx.server.settings.cosmos;
      if (cosmos && toBuild.length > 0) cosmosCheckIndexBuild(toBuild, { hasDocuments: coll.scan(ctx.now).next().done !== true }, cosmos);
      if (toBuild.length > 0) {
        for (const spec of toBuild) {
          coll.addIndex(spec, ctx.now());
          built.push(spec.name as string);
        }
      }
    } catch (err) {
      for (const indexName of built) coll.dropIndex(indexName);
      // A transaction's collection goes with the transaction, which the failure aborts.
      if (created && ctx.server.catalog.transactionDdl === null) ctx.server.catalog.drop(ctx.db, name);
      throw err;
    }
    if (toBuild.length === 0) {
      return { numIndexesBefore, numIndexesAfter: numIndexesBefore, note: 'all indexes already exist' };
    }
    for (const spec of toBuild) ctx.server.ttl.indexCreated(coll, spec);
    ctx.server.catalog.indexesCreated(coll, toBuild);
    return { createdCollectionAutomatically: created, numIndexesBefore, numIndexesAfter: coll.indexes.length + idIndexCount };
  },
};
