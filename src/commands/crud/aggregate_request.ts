/**
 * What `aggregate` and its explain share: the request's checks (`aggregation_request_helper::
 * validate`), and its preparation: the view resolved, the collation and `let` read, the runtime
 * ports filled in, the pipeline parsed, optimised and planned (pipeline_exec.ts).
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { newPipelineContext } from '../../storage/aggregation/pipeline_context.js';
import { stageNamed } from '../../storage/aggregation/registry.js';
import type { Collection } from '../../storage/collection.js';
import { describeReadConcern, type ReadConcern } from '../read_write_concern.js';
import type { CommandContext } from '../types.js';
import { bypassArg } from './document_validation.js';
import { preparePipeline, type PreparedPipeline } from './pipeline_exec.js';
import { commandPipelineRuntime } from './pipeline_runtime.js';
import { checkCollation, checkHint, commandVariables, queryCollator } from './query_exec.js';
import { checkViewCollation, viewFor } from './view_reads.js';

/**
 * `aggregation_request_helper::validate`, after the fields are parsed: the cursor is required
 * unless `explain` is true; an explain takes no writeConcern; `needsMerge`
 * goes with `fromMongos`.
 */
export function checkAggregateRequest(cmd: Document, explain: boolean): void {
  if (cmd.cursor === undefined && cmd.explain !== true && !explain) {
    throw new CommandError('FailedToParse', "The 'cursor' option is required, except for aggregate with the explain argument");
  }
  if (explain && cmd.writeConcern !== undefined) {
    throw new CommandError('FailedToParse', "Aggregation explain does not support the'writeConcern' option");
  }
  if (cmd.needsMerge !== undefined && cmd.fromMongos === undefined) {
    throw new CommandError('FailedToParse', "Cannot specify 'needsMerge' without 'fromMongos'");
  }
}

/**
 * Why the aggregate `cmd` refuses the read concern `rc` (`LiteParsedPipeline::
 * supportsReadConcern`): a stage that runs only at `local` (the diagnostic stages), or a writing
 * stage under `linearizable`; undefined when every stage accepts it.
 */
export function aggregateReadConcernRefusal(cmd: Document, rc: ReadConcern): string | undefined {
  const level = rc.level ?? 'local';
  const stages = Array.isArray(cmd.pipeline) ? (cmd.pipeline as unknown[]) : [];
  for (const stage of stages) {
    if (stage === null || typeof stage !== 'object') continue;
    const name = Object.keys(stage)[0] ?? '';
    const refuses = stageNamed(name)?.constraints.readConcern;
    if (refuses === 'localOnly' && level !== 'local') {
      return `Aggregation stage ${name} cannot run with a readConcern other than 'local', or in a multi-document transaction. Current readConcern: ${describeReadConcern(rc).slice('{ readConcern: '.length, -2)}`;
    }
    if (refuses === 'notLinearizable' && level === 'linearizable') return `${name} cannot be used with a 'linearizable' read concern level`;
  }
  return undefined;
}

/** The stages outside API Version 1 (mongod's `LiteParsed*` of each: `APIStrictError` under `apiStrict`). */
const OUTSIDE_API_V1: ReadonlySet<string> = new Set([
  '$currentOp',
  '$indexStats',
  '$listCatalog',
  '$listClusterCatalog',
  '$listLocalSessions',
  '$listSampledQueries',
  '$listSearchIndexes',
  '$listSessions',
  '$planCacheStats',
  '$queryStats',
  '$search',
  '$searchMeta',
  '$shardedDataDistribution',
]);

/**
 * With `apiStrict: true` (API Version 1): the `explain` field, the stages outside the version,
 * and `$collStats`' options but `count` are refused (323).
 */
export function checkApiStrict(cmd: Document): void {
  if (cmd.apiStrict !== true) return;
  if (cmd.explain !== undefined) throw new CommandError('APIStrictError', "BSON field 'aggregate.explain' is not allowed with apiStrict:true.");
  const stages = Array.isArray(cmd.pipeline) ? (cmd.pipeline as unknown[]) : [];
  for (const stage of stages) {
    if (stage === null || typeof stage !== 'object') continue;
    const name = Object.keys(stage)[0] ?? '';
    if (OUTSIDE_API_V1.has(name)) throw new CommandError('APIStrictError', `${name} is not allowed with 'apiStrict: true' in API Version 1`);
    const spec = (stage as Document)[name];
    if (name === '$collStats' && spec !== null && typeof spec === 'object') {
      const option = Object.keys(spec).find((key) => key !== 'count');
      if (option !== undefined) throw new CommandError('APIStrictError', `$collStats's ${option} option is not allowed with 'apiStrict: true' in API Version 1`);
    }
  }
}

/** An aggregate ready to run (or to explain). */
export interface PreparedAggregate {
  readonly prepared: PreparedPipeline;
  /** The namespace the reply's cursor names (`db.$cmd.aggregate` for `{aggregate: 1}`). */
  readonly ns: string;
  /** The namespace read: a view's is the collection its chain ends at (explain's `namespace`). */
  readonly readNs: string;
  /** The collection read (a view's resolved to the collection its chain ends at). */
  readonly coll: Collection | undefined;
  /** The effective stages: the view's pipeline, then the command's. */
  readonly stages: readonly Document[];
}

/**
 * Prepares `cmd` (an aggregate): on a view, the view's pipeline runs first, over the collection
 * its chain ends at. `writes` false describes `$out`/`$merge` without performing them.
 */
export function prepareAggregate(ctx: CommandContext, cmd: Document, writes: boolean): PreparedAggregate {
  const target = cmd.aggregate;
  const userStages = (cmd.pipeline as Document[] | undefined) ?? [];
  const collectionless = typeof target !== 'string';
  let view = collectionless ? undefined : viewFor(ctx, target);
  if (view) {
    checkViewCollation(cmd.collation);
    // A first stage that makes its own documents about a collection ($collStats) is given the
    // view itself, not its pipeline: it answers 166 once its specification is checked.
    const first = userStages[0] === undefined ? undefined : stageNamed(Object.keys(userStages[0])[0] ?? '');
    if (first?.constraints.input === 'none' && first.constraints.target === 'collection') view = undefined;
  }
  const collation = checkCollation(cmd.collation);
  // The command's `let` variables: evaluated once (with the pipeline's $$NOW), before any stage.
  const nowMs = ctx.now();
  const variables = commandVariables(cmd, nowMs);
  const coll = collectionless ? undefined : ctx.server.catalog.get(ctx.db, view ? view.source : (target as string));
  const collator = queryCollator(coll, collation);
  checkHint(coll, cmd.hint);
  const pctx = newPipelineContext({
    now: new Date(nowMs),
    variables,
    collator,
    runtime: commandPipelineRuntime(ctx, { writes, bypassValidation: bypassArg(cmd), command: cmd, ...(typeof cmd.allowDiskUse === 'boolean' ? { allowDiskUse: cmd.allowDiskUse } : {}) }),
    collection: collectionless ? null : view ? view.source : (target as string),
  });
  const stages = view ? [...view.pipeline, ...userStages] : userStages;
  const prepared = preparePipeline({ stages, ctx: pctx, coll, hint: cmd.hint, collator });
  const ns = collectionless ? `${ctx.db}.$cmd.aggregate` : `${ctx.db}.${target as string}`;
  const readNs = collectionless ? ns : `${ctx.db}.${view ? view.source : (target as string)}`;
  return { prepared, ns, readNs, coll, stages };
}

/**
 * The parse context of an aggregate whose documents the server makes rather than a collection's
 * records (`local.oplog.rs`, a change stream): the command's `let` variables with its $$NOW (`nowMs`), and
 * no collation (`collation` is checked, then the simple one used, as mongod does there).
 */
export function serverSourceContext(ctx: CommandContext, cmd: Document, collection: string | null, writes: boolean, nowMs: number): ReturnType<typeof newPipelineContext> {
  checkCollation(cmd.collation);
  return newPipelineContext({
    now: new Date(nowMs),
    variables: commandVariables(cmd, nowMs),
    collator: null,
    runtime: commandPipelineRuntime(ctx, { writes, command: cmd }),
    collection,
  });
}
