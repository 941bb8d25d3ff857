/** `insert`: ordered or unordered batches of documents, `_id` generated when absent. */
import type { Document } from '../../bson/library.js';
import { IdlRules, collectionArg } from '../args.js';
import type { CommandDefinition } from '../types.js';
import { checkBatchSize } from './write_batch.js';
import { bypassArg, writeEnv } from './document_validation.js';
import { viewNotCollectionError } from '../../storage/values/namespace.js';
import { executeInsert } from '../../storage/write/insert.js';

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
    const counters = ctx.server.counters.opcounters;
    const { n, errors } = executeInsert(writeEnv(ctx, bypassArg(cmd)), {
      target:
        coll ??
        ((): never => {
          throw viewNotCollectionError(ctx.db, name);
        }),
      documents,
      ordered: cmd.ordered !== false,
      // One time for the command's documents (the clock is read once, not per document).
      nowMs: ctx.now(),
      maxBytes: ctx.requestBytes,
      onStatement: () => counters.insert++,
    });
    if (errors.length === 0) return { n };
    return { n, writeErrors: errors.map((e) => e.error.toWriteError(e.index)) };
  },
};
