/** `delete`: statements with `limit` 0 (all) or 1 (first match). */
import type { Document } from '../../bson.js';
import { CommandError } from '../../errors/command_error.js';
import { bsonTypeOf, isNumber, toDouble } from '../../storage/values/bson_type.js';
import { compileQuery } from '../../storage/query/compile_query.js';
import { boolArg, collectionArg } from '../args.js';
import type { CommandDefinition } from '../types.js';
import { checkCollation, checkHint, commandVariables, orderedRecords } from './query_exec.js';
import { checkBatchSize, runBatch } from './write_batch.js';
import { viewNotCollectionError } from '../../storage/views.js';

const STATEMENT_FIELDS = new Set(['q', 'limit', 'hint', 'collation', 'sort']);

/** The `delete` command. */
export const del: CommandDefinition = {
  name: 'delete',
  target: { type: 'string' },
  args: { deletes: { type: 'array', required: true }, ordered: { type: 'bool' }, let: { type: 'object' } },
  help: 'delete documents',
  run(ctx, cmd) {
    const name = collectionArg(cmd, 'delete', ctx.db);
    const deletes = cmd.deletes as unknown[];
    checkBatchSize(deletes.length);
    const coll = ctx.server.catalog.get(ctx.db, name);
    const onView = !coll && ctx.server.catalog.view(ctx.db, name) !== undefined;
    const variables = commandVariables(cmd, ctx.now());
    let n = 0;
    const writeErrors = runBatch(deletes, boolArg(cmd, 'ordered', true), (raw, index) => {
      if (bsonTypeOf(raw) !== 'object') {
        throw new CommandError('TypeMismatch', `BSON field 'delete.deletes.${index}' is the wrong type '${bsonTypeOf(raw)}', expected type 'object'`);
      }
      const stmt = raw as Document;
      for (const key of Object.keys(stmt)) {
        if (!STATEMENT_FIELDS.has(key)) throw new CommandError('IDLUnknownField', `BSON field 'delete.deletes.${key}' is an unknown field.`);
      }
      if (bsonTypeOf(stmt.q) !== 'object') {
        throw new CommandError(
          stmt.q === undefined ? 'IDLFailedToParse' : 'TypeMismatch',
          stmt.q === undefined ? "BSON field 'delete.deletes.q' is missing but a required field" : `BSON field 'delete.deletes.q' is the wrong type '${bsonTypeOf(stmt.q)}', expected type 'object'`,
        );
      }
      if (stmt.limit === undefined) throw new CommandError('IDLFailedToParse', "BSON field 'delete.deletes.limit' is missing but a required field");
      const limit = isNumber(stmt.limit) ? toDouble(stmt.limit) : NaN;
      if (limit !== 0 && limit !== 1) {
        throw new CommandError('FailedToParse', `The limit field in delete objects must be 0 or 1. Got ${String(isNumber(stmt.limit) ? toDouble(stmt.limit) : stmt.limit)}`);
      }
      checkHint(coll, stmt.hint);
      checkCollation(stmt.collation);
      ctx.server.counters.opcounters.delete++;
      const predicate = compileQuery(stmt.q as Document, ctx.now(), variables); // a bad filter is an error even with nothing to delete
      if (!coll) {
        if (onView) throw viewNotCollectionError(ctx.db, name); // a view takes no writes
        return;
      }
      const records = [...orderedRecords(coll, { filter: stmt.q as Document, predicate, sort: stmt.sort as Document | undefined, limit }, ctx.now)];
      for (const rec of records) if (coll.remove(rec)) n++;
    });
    return writeErrors.length > 0 ? { n, writeErrors } : { n };
  },
};
