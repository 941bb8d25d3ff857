/**
 * `$out` (document_source_out.cpp): the pipeline's documents replace those of the target
 * collection (of this database or another), atomically: a failure (a duplicate key, a document
 * validation error) leaves the target as it was; the target's options and indexes are kept. Not
 * to a capped collection (17152), an internal database (31321), a system collection (17385); to a
 * time-series collection, 238 in Mayfly.
 */
import { CommandError } from '../../../errors/command_error.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { isDocument } from '../../values/paths.js';
import type { StageDefinition } from '../stage.js';
import { checkTarget, readAll, targetNamespace } from './_internal.js';

/** `{$out: "<coll>"}` or `{$out: {db, coll}}`. */
export const out: StageDefinition = {
  name: '$out',
  constraints: { stream: 'blocking', position: 'last', input: 'documents', target: 'collection', allowedIn: {}, writes: true, readConcern: 'notLinearizable' },
  parse(spec, ctx) {
    if (typeof spec !== 'string' && !isDocument(spec)) {
      throw new CommandError(16990, `$out only supports a string or object argument, but found ${bsonTypeOf(spec)}`);
    }
    if (isDocument(spec) && spec.timeseries !== undefined) throw new CommandError('NotImplemented', '$out to a time-series collection is not supported by Mayfly yet');
    const { db, coll } = targetNamespace('$out', spec, ctx.runtime.db, 'db', 'coll');
    checkTarget('$out', db, coll);
    const { output, collections } = ctx.runtime;
    return {
      *run(input) {
        const docs = readAll(input);
        const target = collections.describe(db, coll);
        if (target?.capped) throw new CommandError(17152, `namespace '${target.ns}' is capped so it can't be used for $out`);
        // Explain runs the pipeline without a writer: nothing is written.
        output?.replace(db, coll, docs);
      },
    };
  },
};
