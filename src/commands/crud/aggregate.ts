/** `aggregate`: a pipeline over a collection, returned through a cursor. */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { compilePipeline } from '../../storage/aggregation/pipeline.js';
import { newPipelineContext, type PipelineContext } from '../../storage/aggregation/pipeline_context.js';
import { bsonTypeOf } from '../../storage/values/bson_type.js';
import { isNumber, toDouble } from '../../storage/values/numeric.js';
import { isDocument } from '../../storage/values/paths.js';
import { documentFields, type StoredDocument } from '../../storage/collection.js';
import { compileMatchFilter } from '../../storage/aggregation/stages/match.js';
import { pipelineFields } from '../../storage/aggregation/dependencies.js';
import { isEmptyFilter, predicateFields } from '../../storage/query/compile_filter.js';
import { revalidatingSource } from '../../storage/cursors.js';
import { candidateRecords } from '../../storage/read_plan.js';
import { recordMatcher } from '../../storage/planner/execute.js';
import { IdlRules, checkCursorOptions, docArg, intArg } from '../args.js';
import { cursorReply, firstBatchReply } from '../cursor_reply.js';
import type { ArgRule, CommandDefinition } from '../types.js';
import { checkCollation, checkHint, commandVariables, queryCollator } from './query_exec.js';
import { checkOutputTarget, checkSourcePositions, collectionlessSource, splitOutputStage, writeOutput } from './aggregate_stages.js';
import { explainAggregate } from './explain.js';
import { checkViewCollation, viewFor, withExecutorContext } from './view_reads.js';
import { collStatsSource } from './coll_stats_stage.js';
import { bypassArg, enforceValidation, validatedInsert } from './document_validation.js';

/** Stages whose every output document comes from one input document, read just before. */
const ONE_TO_ONE_STAGES = new Set(['$match', '$project', '$addFields', '$set', '$unset', '$replaceRoot', '$replaceWith', '$skip', '$limit']);

/**
 * `aggregation_request_helper::validate`, after the fields are parsed: the cursor is required
 * unless `explain` is given (whatever its value); an explain takes no writeConcern; `needsMerge`
 * goes with `fromMongos`.
 */
export function checkAggregateRequest(cmd: Document, explain: boolean): void {
  if (cmd.cursor === undefined && cmd.explain === undefined && !explain) {
    throw new CommandError('FailedToParse', "The 'cursor' option is required, except for aggregate with the explain argument");
  }
  if (explain && cmd.writeConcern !== undefined) {
    throw new CommandError('FailedToParse', "Aggregation explain does not support the'writeConcern' option");
  }
  if (cmd.needsMerge !== undefined && cmd.fromMongos === undefined) {
    throw new CommandError('FailedToParse', "Cannot specify 'needsMerge' without 'fromMongos'");
  }
}

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

/** The aggregate's target (`parseNs`): a collection name, or 1 for a collectionless aggregate. */
const aggregateTarget: ArgRule = {
  type: ['string', 'number'],
  parse(value, field) {
    if (isNumber(value)) {
      if (toDouble(value) !== 1) {
        throw new CommandError('FailedToParse', `Invalid command format: the '${field}' field must specify a collection name or 1`);
      }
      return;
    }
    if (typeof value !== 'string') throw new CommandError('TypeMismatch', `collection name has invalid type: ${bsonTypeOf(value)}`);
  },
};

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
        checkCursorOptions('cursor', value);
      },
    },
    maxTimeMS: IdlRules.nonNegativeInt64,
    bypassDocumentValidation: IdlRules.safeBool,
    readConcern: { type: 'object' },
    collation: { type: 'object' },
    hint: IdlRules.indexHint,
    let: { type: 'object' },
    needsMerge: IdlRules.optionalBool,
    fromMongos: IdlRules.optionalBool,
    isMapReduceCommand: IdlRules.optionalBool,
  },
  help: 'Runs the aggregation command. See http://dochub.mongodb.org/core/aggregation for more details.',
  run(ctx, cmd) {
    const target = cmd.aggregate;
    if (target === '') throw new CommandError('InvalidNamespace', `Invalid namespace specified '${ctx.db}.'`);
    checkAggregateRequest(cmd, cmd.explain === true);
    // `explain: true` describes the plan (queryPlanner verbosity) instead of running it.
    if (cmd.explain === true) return explainAggregate(ctx, cmd, 'queryPlanner');
    const stages = cmd.pipeline as unknown[];
    // On a view, the view's pipeline runs first, over the collection its chain ends at.
    const view = typeof target === 'string' ? viewFor(ctx, target) : undefined;
    if (view) checkViewCollation(cmd.collation);
    const collation = checkCollation(cmd.collation);
    // The command's `let` variables: evaluated once (with the pipeline's $$NOW), before any stage.
    const nowMs = ctx.now();
    const variables = commandVariables(cmd, nowMs);
    const { inner, output: writeStage } = splitOutputStage(stages as Document[], ctx.db);
    checkSourcePositions(inner, typeof target !== 'string');
    const ns = typeof target === 'string' ? `${ctx.db}.${target}` : `${ctx.db}.$cmd.aggregate`;
    const batchSize = intArg(docArg(cmd, 'cursor') ?? {}, 'batchSize');
    ctx.server.counters.opcounters.command++;
    const catalog = ctx.server.catalog;
    const coll = typeof target === 'string' ? catalog.get(ctx.db, view ? view.source : target) : undefined;
    const collator = queryCollator(coll, collation);
    checkHint(coll, cmd.hint);
    const start = typeof target === 'string' ? collStatsSource(ctx, target, inner) : collectionlessSource(inner, ctx.server, nowMs, variables);
    if (writeStage) checkOutputTarget(writeStage, catalog);
    const pipelineContext: PipelineContext = newPipelineContext({
      now: new Date(nowMs),
      variables,
      collator,
      collection: (name: string) => {
        const other = catalog.get(ctx.db, name);
        return other ? (function* () { for (const rec of other.scan(ctx.now)) yield rec.doc; })() : [];
      },
    });
    const effective = start ? start.rest : view ? [...view.pipeline, ...inner] : inner;
    const pipeline = compilePipeline(effective, pipelineContext);
    // The fields the pipeline reads of each document, when known: only those are decoded.
    const needed = pipelineFields(effective);
    // A leading $match narrows the candidates (an _id or index lookup), and is tested first on
    // only the fields it reads, so that a document it refuses is never decoded whole; the stage
    // still runs on the documents it lets through.
    const first = (view?.pipeline[0] ?? stages[0]) as Document | undefined;
    const narrowing = first && bsonTypeOf(first.$match) === 'object' ? (first.$match as Document) : {};
    const prefilter = isEmptyFilter(narrowing) ? null : compileMatchFilter(narrowing, pipelineContext);
    // Only when it reads some fields: a filter that reads the whole document is left to the stage.
    const prematch = prefilter && predicateFields(prefilter) !== null ? recordMatcher(prefilter) : null;
    let lastRec: StoredDocument | undefined;
    const source: Iterable<Document> = start
      ? start.source
      : coll
      ? (function* () {
          for (const rec of candidateRecords(coll, narrowing, ctx.now, cmd.hint, collator)) {
            if (prematch !== null && !prematch(rec)) continue;
            lastRec = rec;
            yield documentFields(rec, needed);
          }
        })()
      : [];
    const output = withExecutorContext(pipeline(source));
    if (writeStage) {
      // $out/$merge run to completion now; the reply is an exhausted cursor with no documents.
      try {
        const bypass = bypassArg(cmd);
        writeOutput(writeStage, output, catalog, nowMs, (target, next, previous) => {
          if (!previous) return validatedInsert(ctx, target, next, bypass);
          enforceValidation(ctx, target, next, previous, bypass);
          return next;
        });
      } catch (err) {
        if (err instanceof CommandError && !err.message.startsWith('PlanExecutor error')) {
          throw new CommandError(err.code, `PlanExecutor error during aggregation :: caused by :: ${err.message}`, err.extra);
        }
        throw err;
      }
      return cursorReply(ns, []);
    }
    if (!coll || start || ![...(view?.pipeline ?? []), ...stages].every((stage) => ONE_TO_ONE_STAGES.has(Object.keys(stage as Document)[0]!))) {
      return firstBatchReply(ctx, ns, output, { batchSize });
    }
    // Each output document comes from the record read last: the cursor can re-check the one
    // it reads ahead (it may expire, Cosmos TTL, or be deleted before the getMore).
    const tracked = (function* () {
      for (const doc of output) yield { doc, rec: lastRec };
    })();
    return firstBatchReply(ctx, ns, revalidatingSource(tracked, (rec) => coll.isLive(rec, ctx.now())), { batchSize });
  },
};
