/** `insert`: ordered or unordered batches of documents, `_id` generated when absent. */
import type { Document } from '../../bson/library.js';
import { IdlRules, collectionArg } from '../args.js';
import type { CommandDefinition } from '../types.js';
import { checkBatchSize, runBatch } from './write_batch.js';
import { bypassArg, validatedInsert } from './document_validation.js';
import { viewNotCollectionError } from '../../storage/values/namespace.js';

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
    const catalog = ctx.server.catalog;
    // A view takes no writes: each statement fails with 166.
    const coll = !catalog.get(ctx.db, name) && catalog.view(ctx.db, name) ? undefined : catalog.getOrCreate(ctx.db, name).coll;
    const bypass = bypassArg(cmd);
    // One time for the command's documents (the clock is read once, not per document).
    const nowMs = ctx.now();
    let n = 0;
    const writeErrors = runBatch(documents, cmd.ordered !== false, (doc) => {
      ctx.server.counters.opcounters.insert++;
      if (!coll) throw viewNotCollectionError(ctx.db, name);
      coll.insert(validatedInsert(ctx, coll, doc, bypass), nowMs, ctx.requestBytes);
      n++;
    });
    return writeErrors.length > 0 ? { n, writeErrors } : { n };
  },
};
