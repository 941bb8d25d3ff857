/** `aggregate`: a pipeline over a collection, returned through a cursor. */
import type { Document } from '../../bson.js';
import { CommandError } from '../../errors/command_error.js';
import { compilePipeline } from '../../storage/aggregation/pipeline.js';
import { bsonTypeOf } from '../../storage/values/bson_type.js';
import { candidateRecords } from '../../storage/read_plan.js';
import { intArg } from '../args.js';
import { firstBatchReply } from '../cursor_reply.js';
import type { CommandDefinition } from '../types.js';
import { checkHint, checkNonNegative } from './query_exec.js';

/** Runtime errors of a running pipeline carry mongod's executor prefix (parse errors do not). */
function* withExecutorContext(results: Iterable<Document>): Generator<Document> {
  try {
    yield* results;
  } catch (err) {
    if (err instanceof CommandError) {
      throw new CommandError(err.code, `PlanExecutor error during aggregation :: caused by :: ${err.message}`, err.extra);
    }
    throw err;
  }
}

/** The `aggregate` command. */
export const aggregate: CommandDefinition = {
  name: 'aggregate',
  target: { type: ['string', 'number'] },
  args: {
    pipeline: { type: 'array', required: true },
    cursor: { type: 'object' },
    explain: { type: 'bool' },
    allowDiskUse: { type: 'bool' },
    bypassDocumentValidation: { type: 'bool' },
    collation: { type: 'object' },
    hint: { type: ['object', 'string'] },
    let: { type: 'object' },
    fromMongos: { type: 'bool' },
    needsMerge: { type: 'bool' },
    isMapReduceCommand: { type: 'bool' },
  },
  help: 'Runs the aggregation command. See http://dochub.mongodb.org/core/aggregation for more details.',
  run(ctx, cmd) {
    const target = cmd.aggregate;
    if (typeof target !== 'string') {
      throw new CommandError('NotImplemented', 'Collectionless aggregation ({aggregate: 1}) is not supported by Mayfly yet');
    }
    if (target.length === 0) throw new CommandError('InvalidNamespace', `Invalid namespace specified '${ctx.db}.'`);
    if (cmd.explain === true) throw new CommandError('NotImplemented', 'explain is not supported by Mayfly yet');
    if (cmd.cursor === undefined) {
      throw new CommandError('FailedToParse', "The 'cursor' option is required, except for aggregate with the explain argument");
    }
    const stages = cmd.pipeline as unknown[];
    for (const stage of stages) {
      if (bsonTypeOf(stage) !== 'object') {
        throw new CommandError('TypeMismatch', "Each element of the 'pipeline' array must be an object");
      }
    }
    const cursorOpts = cmd.cursor as Document;
    const batchSize = intArg(cursorOpts, 'batchSize');
    checkNonNegative('batchSize', batchSize);
    ctx.server.counters.opcounters.command++;
    const catalog = ctx.server.catalog;
    const coll = catalog.get(ctx.db, target);
    checkHint(coll, cmd.hint);
    const nowMs = ctx.now();
    const pipeline = compilePipeline(stages as Document[], {
      now: new Date(nowMs),
      collection: (name: string) => {
        const other = catalog.get(ctx.db, name);
        return other ? (function* () { for (const rec of other.scan(ctx.now)) yield rec.doc; })() : [];
      },
    });
    // A leading $match narrows the candidates (an _id or index lookup); the stage still runs.
    const first = stages[0] as Document | undefined;
    const narrowing = first && bsonTypeOf(first.$match) === 'object' ? (first.$match as Document) : {};
    const source: Iterable<Document> = coll
      ? (function* () {
          for (const rec of candidateRecords(coll, narrowing, ctx.now)) yield rec.doc;
        })()
      : [];
    const output = withExecutorContext(pipeline(source));
    return firstBatchReply(ctx, `${ctx.db}.${target}`, output, { batchSize });
  },
};
