/**
 * `$sort` (document_source_sort.cpp): a blocking stage ordering by a sort specification
 * (`compileKeyedSort`, strings under the collation), stably. The optimiser hands a `$sort` after the
 * leading `$match`es to the query layer, which may read it from an index.
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { compileKeyedSort, sortItems } from '../../query/sort.js';
import { isDocument } from '../../values/paths.js';
import { BLOCKING, type StageDefinition, type StageInstance } from '../stage.js';

/** A parsed `$sort`: its specification, for the optimiser. */
export interface SortInstance extends StageInstance {
  readonly sort: Document;
}

/** `{$sort: {<field>: 1 | -1, ...}}`. */
export const sort: StageDefinition = {
  name: '$sort',
  constraints: BLOCKING,
  parse(spec, ctx): SortInstance {
    if (!isDocument(spec)) throw new CommandError(15973, 'the $sort key specification must be an object');
    if (Object.keys(spec).length === 0) throw new CommandError(15976, '$sort stage must have at least one sort key');
    const keyed = compileKeyedSort(spec, ctx.expressions.runtime.collator);
    return {
      sort: spec,
      *run(input) {
        // Each document's sort values computed once, not at every comparison.
        yield* sortItems(input, (doc: Document) => doc, keyed);
      },
    };
  },
};
