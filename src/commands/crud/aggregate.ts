/**
 * `aggregate`: a pipeline over a collection (or a view, or `{aggregate: 1}`), returned through a
 * cursor; a pipeline ending in `$out` or `$merge` runs to completion and returns no document.
 * The pipeline's preparation (view, let, ports, parse, optimiser, plan) is aggregate_request.ts,
 * its read path pipeline_exec.ts.
 */
import { CommandError } from '../../errors/command_error.js';
import { cosmosCheckLookup } from '../../cosmos/rules/lookup_pipeline.js';
import { cosmosCheckStages } from '../../cosmos/rules/unsupported_stages.js';
import { revalidatingSource } from '../../storage/cursors.js';
import type { StoredDocument } from '../../storage/record.js';
import { bsonTypeOf } from '../../storage/values/bson_type.js';
import { isNumber, safeNumberLong, toDouble } from '../../storage/values/numeric.js';
import { isDocument } from '../../storage/values/paths.js';
import { IdlRules, checkCursorOptions, docArg } from '../args.js';
import { cursorReply, firstBatchReply } from '../cursor_reply.js';
import type { ArgRule, CommandContext, CommandDefinition } from '../types.js';
import { aggregateReadConcernRefusal, checkAggregateRequest, checkApiStrict, prepareAggregate } from './aggregate_request.js';
import { explainAggregate } from './explain_aggregate.js';
import { commandTimeLimit } from './time_limit.js';
import { parseMaxTimeMS } from '../read_write_concern.js';
import { followsRecords, runPipeline } from './pipeline_exec.js';
import { isChangeStreamPipeline, openChangeStream } from './change_stream_open.js';
import { aggregateShape } from '../../storage/planner/command_shape.js';
import { checkNotRejected } from '../query_settings/_internal.js';
import { aggregateOplog, aggregatesOplog } from './oplog_find.js';

/** `pipeline` (`parsePipelineFromBSON`): an array of objects. */
const pipelineRule: ArgRule = {
  type: 'array',
  required: true,
  parse(value) {
    if (!Array.isArray(value)) throw new CommandError('TypeMismatch', "'pipeline' option must be specified as an array");
    for (const stage of value) {
      if (!isDocument(stage)) throw new CommandError('TypeMismatch', "Each element of the 'pipeline' array must be an object");
    }
  },
};

/**
 * The aggregate's target (`parseNs`): a collection name (73 for another type), or 1 for a
 * collectionless aggregate (2 for another number).
 */
const aggregateTarget: ArgRule = {
  type: ['string', 'number'],
  parse(value, field) {
    if (isNumber(value)) {
      if (toDouble(value) !== 1) {
        throw new CommandError('BadValue', `Invalid command format: the '${field}' field must specify a collection name or 1`);
      }
      return;
    }
    if (typeof value !== 'string') throw new CommandError('InvalidNamespace', `collection name has invalid type ${bsonTypeOf(value)}`);
  },
};

/** The number a server parameter holds (a registered integer parameter). */
function numberParameter(ctx: CommandContext, name: string): number | undefined {
  const value = ctx.server.parameters.lookup(name)?.get();
  return typeof value === 'number' ? value : undefined;
}

/** The `aggregate` command (`AggregateCommandRequest` in aggregate_command.idl). */
export const aggregate: CommandDefinition = {
  name: 'aggregate',
  target: aggregateTarget,
  args: {
    pipeline: pipelineRule,
    // `explainVerbosity`: a boolean (`parseExplainModeFromBSON`).
    explain: {
      type: 'bool',
      parse(value) {
        if (typeof value !== 'boolean') throw new CommandError('TypeMismatch', 'explain must be a boolean');
      },
    },
    allowDiskUse: IdlRules.optionalBool,
    // `aggregateCursor` (`parseAggregateCursorFromBSON`): an object, then SimpleCursorOptions.
    cursor: {
      type: 'object',
      parse(value) {
        if (!isDocument(value)) throw new CommandError('TypeMismatch', 'cursor field must be missing or an object');
        checkCursorOptions('cursor', value, { negative: 'BadValue' });
      },
    },
    bypassDocumentValidation: IdlRules.safeBool,
    collation: { type: 'object' },
    hint: IdlRules.indexHint,
    let: { type: 'object' },
    needsMerge: IdlRules.optionalBool,
    fromMongos: IdlRules.optionalBool,
    isMapReduceCommand: IdlRules.optionalBool,
  },
  concerns: { readConcern: aggregateReadConcernRefusal, writeConcern: true },
  help: 'Runs the aggregation command. See http://dochub.mongodb.org/core/aggregation for more details.',
  run(ctx, cmd) {
    const target = cmd.aggregate;
    if (target === '') throw new CommandError('InvalidNamespace', `Invalid namespace specified '${ctx.db}.'`);
    checkApiStrict(cmd);
    checkAggregateRequest(cmd, cmd.explain === true);
    const cosmos = ctx.server.settings.cosmos;
    if (cosmos?.rules.unsupportedStages) cosmosCheckStages(cmd.pipeline, cosmos.version);
    if (cosmos?.rules.lookupPipeline) cosmosCheckLookup(cmd.pipeline);
    // `explain: true` describes the plan (queryPlanner verbosity) instead of running it.
    if (cmd.explain === true) return explainAggregate(ctx, cmd, 'queryPlanner');
    const batchSizeValue = docArg(cmd, 'cursor')?.batchSize;
    // A number, rounded as mongod reads it (`safeNumberLong`: doubles truncated, decimals half to even).
    const batchSize = batchSizeValue === undefined || batchSizeValue === null ? undefined : Number(safeNumberLong(batchSizeValue));
    if (isChangeStreamPipeline(cmd.pipeline)) return openChangeStream(ctx, cmd, batchSize);
    if (aggregatesOplog(ctx, cmd)) return aggregateOplog(ctx, cmd, batchSize);
    checkNotRejected(ctx.server, () => aggregateShape({ db: ctx.db, coll: typeof target === 'string' ? target : null }, cmd));
    const { prepared, ns, coll } = prepareAggregate(ctx, cmd, true);
    const maxTimeMS = parseMaxTimeMS(cmd.maxTimeMS, 'aggregate');
    const timeLimit = commandTimeLimit(ctx, maxTimeMS);
    // allowDiskUse (default true, mongod 8's allowDiskUseByDefault): false bounds the blocking sort.
    const sortMemoryLimitBytes = cmd.allowDiskUse === false ? numberParameter(ctx, 'internalQueryMaxBlockingSortMemoryUsageBytes') : undefined;
    ctx.server.counters.opcounters.command++;
    const last = prepared.parsed.stages[prepared.parsed.stages.length - 1];
    if (last?.definition.constraints.writes) {
      // $out/$merge run to completion now; the reply is an exhausted cursor with no documents.
      for (const _ of runPipeline(prepared, { now: ctx.now, timeLimit, sortMemoryLimitBytes })) {
        // the writing stage yields nothing
      }
      return cursorReply(ns, []);
    }
    if (!followsRecords(prepared) || coll === undefined) {
      return firstBatchReply(ctx, ns, runPipeline(prepared, { now: ctx.now, timeLimit, sortMemoryLimitBytes })[Symbol.iterator](), { batchSize });
    }
    // Each output document comes from the record read last: the cursor can re-check the one
    // it reads ahead (it may expire, Cosmos TTL, or be deleted before the getMore).
    let lastRec: StoredDocument | undefined;
    const output = runPipeline(prepared, { now: ctx.now, timeLimit, sortMemoryLimitBytes, onRecord: (rec) => (lastRec = rec) });
    const tracked = (function* () {
      for (const doc of output) yield { doc, rec: lastRec };
    })();
    return firstBatchReply(ctx, ns, revalidatingSource(tracked, (rec) => coll.isLive(rec, ctx.now())), { batchSize });
  },
};
