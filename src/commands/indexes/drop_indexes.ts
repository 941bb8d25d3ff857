/**
 * `dropIndexes`: by name, key pattern (181 when several indexes share it), list of names, or
 * `'*'` (every index but `_id_`); the `_id` index is protected (72).
 */
import type { Document } from '../../bson/library.js';
import { clusteredSpecOf } from '../../storage/clustered.js';
import { CommandError } from '../../errors/command_error.js';
import { formatValue } from '../../storage/values/format.js';
import { keyPatternsEqual } from '../../storage/indexes/key_pattern.js';
import { collectionArg } from '../args.js';
import type { CommandDefinition } from '../types.js';

/** The `dropIndexes` command. */
export const dropIndexes: CommandDefinition = {
  name: 'dropIndexes',
  aliases: ['deleteIndexes'],
  target: { type: 'string' },
  args: { index: { type: ['string', 'object', 'array'], required: true } },
  help: 'drop indexes for a collection',
  run(ctx, cmd) {
    const name = collectionArg(cmd, 'dropIndexes', ctx.db);
    const coll = ctx.server.catalog.get(ctx.db, name);
    if (!coll) ctx.server.catalog.assertNotView(ctx.db, name); // 166 on a view
    if (!coll) throw new CommandError('NamespaceNotFound', `ns not found ${ctx.db}.${name}`);
    const nIndexesWas = coll.indexSpecs().length;
    const index = cmd.index;
    const cannotDropId = () =>
      clusteredSpecOf(coll.options) ? new CommandError(5979800, 'It is not possible to drop the clustered index') : new CommandError('InvalidOptions', 'cannot drop _id index');
    const notFound = (n: string) => new CommandError('IndexNotFound', `index not found with name [${n}]`);
    const has = (n: string) => coll.indexSpecs().some((s) => s.name === n);
    let names: string[];
    if (index === '*') {
      names = coll.indexes.map((i) => i.name);
      for (const n of names) dropOne(n);
      return { nIndexesWas, msg: 'non-_id indexes dropped for collection' };
    }
    if (typeof index === 'string') names = [index];
    else if (Array.isArray(index)) {
      if (!index.every((n) => typeof n === 'string')) {
        throw new CommandError('TypeMismatch', "BSON field 'dropIndexes.index' is the wrong type 'array', expected types '[string, object]'");
      }
      names = index as string[];
    } else {
      const key = index as Document;
      const found = coll.indexSpecs().filter((s) => keyPatternsEqual(s.key as Document, key));
      if (found.length === 0) throw new CommandError('IndexNotFound', `can't find index with key: ${formatValue(key)}`);
      if (found.length > 1) {
        throw new CommandError(
          'AmbiguousIndexKeyPattern',
          `${found.length} indexes found for key: ${formatValue(key)}, identify by name instead. Conflicting indexes: ${found.map((s) => formatValue(s)).join(', ')}`,
        );
      }
      if (found[0]!.name === '_id_') throw cannotDropId();
      names = [found[0]!.name as string];
    }
    for (const n of names) {
      if (n === '_id_') throw cannotDropId();
      if (!has(n)) throw notFound(n);
    }
    for (const n of names) dropOne(n);
    return { nIndexesWas };

    function dropOne(indexName: string): void {
      const spec = coll!.indexSpecs().find((s) => s.name === indexName);
      coll!.dropIndex(indexName);
      if (spec) ctx.server.ttl.indexDropped(coll!, spec);
      if (spec) ctx.server.catalog.indexesDropped(coll!, [spec]);
    }
  },
};
