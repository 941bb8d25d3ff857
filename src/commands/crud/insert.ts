/** `insert`: ordered or unordered batches of documents, `_id` generated when absent. */
import type { Document } from '../../bson.js';
import { IdlRules, collectionArg } from '../args.js';
import type { CommandDefinition } from '../types.js';
import { checkBatchSize, runBatch } from './write_batch.js';

/** The `insert` command (`InsertCommandRequest` in write_ops.idl). */
export const insert: CommandDefinition = {
  name: 'insert',
  target: { type: 'string' },
  args: {
    documents: IdlRules.arrayOfObjects(true),
    ordered: IdlRules.bool,
    bypassDocumentValidation: IdlRules.safeBool,
  },
  help: 'insert documents',
  run(ctx, cmd) {
    const name = collectionArg(cmd, 'insert', ctx.db);
    const documents = cmd.documents as Document[];
    checkBatchSize(documents.length);
    const { coll } = ctx.server.catalog.getOrCreate(ctx.db, name);
    let n = 0;
    const writeErrors = runBatch(documents, cmd.ordered !== false, (doc) => {
      ctx.server.counters.opcounters.insert++;
      coll.insert(doc, ctx.now());
      n++;
    });
    return writeErrors.length > 0 ? { n, writeErrors } : { n };
  },
};
