/**
 * `explain` of find, count, distinct, update, delete, findAndModify and aggregate (and
 * aggregate's own `explain: true`), in mongod 8's shape: `queryPlanner` (the winning plan as a
 * tree of IXSCAN/FETCH/COLLSCAN/SORT/… stages), `executionStats` (the plan run to completion
 * with its counters: nReturned, totalKeysExamined, totalDocsExamined, per stage works, seeks, …)
 * at `executionStats`/`allPlansExecution` verbosity, `command`, `serverInfo` and
 * `serverParameters`. Writes are planned and their matches counted, never performed. Each is
 * planned and run under the query's collation (the command's, else the collection's default).
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import type { Collection } from '../../storage/collection.js';
import type { StoredDocument } from '../../storage/record.js';
import { compileProjection } from '../../storage/projection/compile_projection.js';
import { compileQuery } from '../../storage/query/compile_query.js';
import { compileSort } from '../../storage/query/sort.js';
import { compileUpdate } from '../../storage/update/compile_update.js';
import { bsonTypeOf } from '../../storage/values/bson_type.js';
import { isNumber, toDouble } from '../../storage/values/numeric.js';
import { keyString } from '../../storage/values/key_string.js';
import type { Collator } from '../../storage/values/collator.js';
import { isCollatable } from '../../storage/values/compare.js';
import { executePlan } from '../../storage/planner/execute.js';
import { distinctShape, findShape, queryShapeHash } from '../../storage/planner/command_shape.js';
import { ExplainVerbosities, executionStatsSection, queryPlannerSection, shapeHashes, wrapperStats, type ExplainNode, type ExplainVerbosity, type WrapperStage } from '../../storage/planner/explain_output.js';
import { naturalDirection, planQuery, type PlanRequest, type QueryPlan } from '../../storage/planner/plan.js';
import { viewNotCollectionError } from '../../storage/values/namespace.js';
import { collectionArg, docArg, intArg, validateArguments } from '../args.js';
import { typeMismatch } from '../idl_errors.js';
import { isDocument } from '../../storage/values/paths.js';
import type { CommandContext, CommandDefinition } from '../types.js';
import { checkCollation, commandVariables, queryCollator } from './query_exec.js';
import { checkAggregateRequest } from './aggregate_request.js';
import { explainAggregate } from './explain_aggregate.js';
import { SERVER_PARAMETERS, echo, explicitCollation, serverInfo } from './explain_common.js';
import { parseDeleteStatement } from './delete.js';
import { parseUpdateRequest, parseUpdateStatement } from './update.js';
import { checkViewCollation, resolvedAggregate, viewFor } from './view_reads.js';

/** The commands explain can describe. */
const EXPLAINABLE = new Set(['find', 'count', 'distinct', 'update', 'delete', 'findAndModify', 'aggregate']);

/** The `explain` command. */
export const explain: CommandDefinition = {
  name: 'explain',
  // IDL `object`, required: null is missing (40414), another type 14.
  target: {
    type: 'object',
    required: true,
    parse(value, field, idl) {
      if (value === null) throw new CommandError('IDLFailedToParse', `BSON field '${idl}.${field}' is missing but a required field`);
      if (!isDocument(value)) throw typeMismatch(`${idl}.${field}`, value, ['object']);
    },
  },
  args: { verbosity: { type: 'string' } },
  help: 'explain database reads and writes',
  run(ctx, cmd) {
    const verbosity = parseVerbosity(cmd.verbosity);
    const inner = cmd.explain as Document;
    const commandName = Object.keys(inner)[0];
    const def = commandName === undefined ? undefined : ctx.commands.get(commandName);
    if (!def || commandName === undefined) {
      throw new CommandError('CommandNotFound', `Explain failed due to unknown command: ${commandName ?? ''}`);
    }
    if (!EXPLAINABLE.has(def.name)) throw new CommandError('IllegalOperation', `Cannot explain cmd: ${def.name}`);
    validateArguments(def, inner, commandName, ctx.server.settings.replSetName);
    // A view is explained as the aggregation that reads it; writes to it are refused (166).
    const targetName = inner[commandName];
    const view = typeof targetName === 'string' ? viewFor(ctx, targetName) : undefined;
    if (view) {
      if (def.name === 'update' || def.name === 'delete' || def.name === 'findAndModify') throw viewNotCollectionError(ctx.db, targetName as string);
      checkViewCollation(inner.collation);
      return explainAggregate(ctx, { ...resolvedAggregate(inner, def.name, view), $db: ctx.db }, verbosity);
    }
    const command = echo(inner, ctx.db);
    switch (def.name) {
      case 'find':
        return finish({ ...explainFind(ctx, inner, verbosity), queryShapeHash: queryShapeHash(findShape({ db: ctx.db, coll: inner.find as string }, inner)) }, command);
      case 'count':
        return finish(explainCount(ctx, inner, verbosity), command);
      case 'distinct':
        return finish({ ...explainDistinct(ctx, inner, verbosity), queryShapeHash: queryShapeHash(distinctShape({ db: ctx.db, coll: inner.distinct as string }, inner)) }, command);
      case 'update':
        return finish(explainUpdate(ctx, inner, verbosity), command);
      case 'delete':
        return finish(explainDelete(ctx, inner, verbosity), command);
      case 'findAndModify':
        return finish(explainFindAndModify(ctx, inner, commandName, verbosity), command);
      default:
        // aggregation_request_helper::parseFromBSON with an explain verbosity, then validate.
        if (inner.explain !== undefined) {
          throw new CommandError('FailedToParse', "The 'explain' option is illegal when a explain verbosity is also provided");
        }
        checkAggregateRequest(inner, true);
        return explainAggregate(ctx, inner, verbosity);
    }
  },
};

/** Parses `verbosity` (default `allPlansExecution`). */
function parseVerbosity(value: unknown): ExplainVerbosity {
  if (value === undefined || value === null) return 'allPlansExecution';
  if (!(ExplainVerbosities as readonly string[]).includes(value as string)) {
    throw new CommandError('BadValue', `Enumeration value '${String(value)}' for field 'explain.verbosity' is not a valid value.`);
  }
  return value as ExplainVerbosity;
}

/** The sections of one explained query (before the command echo). */
interface Explained {
  readonly queryPlanner: Document;
  readonly executionStats?: Document;
  readonly queryShapeHash: string;
  readonly serverInfo: Document;
}

function finish(explained: Explained, command: Document): Document {
  const out: Document = { explainVersion: '1', queryPlanner: explained.queryPlanner };
  if (explained.executionStats) out.executionStats = explained.executionStats;
  out.queryShapeHash = explained.queryShapeHash;
  out.command = command;
  out.serverInfo = explained.serverInfo;
  out.serverParameters = { ...SERVER_PARAMETERS };
  return out;
}

/** The namespace and collection a command names. */
function target(ctx: CommandContext, cmd: Document, field: string): { ns: string; coll: Collection | undefined } {
  const name = collectionArg(cmd, field, ctx.db);
  return { ns: `${ctx.db}.${name}`, coll: ctx.server.catalog.get(ctx.db, name) };
}

/** Runs `plan` to completion (counting), calling `each` for every record it produces. */
function runPlan(coll: Collection, plan: QueryPlan, predicate: (doc: Document) => boolean, ctx: CommandContext, each?: (rec: StoredDocument) => boolean | void): void {
  for (const rec of executePlan(plan, { coll, predicate, now: ctx.now, explain: true })) {
    if (each && each(rec) === false) break;
  }
}

/** The explain sections of a plan and (at execution verbosities) of its run. */
function sections(ctx: CommandContext, ns: string, plan: QueryPlan, winning: ExplainNode, verbosity: ExplainVerbosity, shape: Document): Explained {
  const queryPlanner = queryPlannerSection(ns, plan, winning, verbosity, shape);
  const hashes = shapeHashes(plan.parsedQuery, shape);
  return {
    queryPlanner,
    executionStats: verbosity === 'queryPlanner' ? undefined : executionStatsSection(winning, verbosity),
    queryShapeHash: hashes.queryShapeHash,
    serverInfo: serverInfo(ctx),
  };
}

function explainFind(ctx: CommandContext, cmd: Document, verbosity: ExplainVerbosity): Explained {
  const { ns, coll } = target(ctx, cmd, 'find');
  const skip = intArg(cmd, 'skip');
  const limit = intArg(cmd, 'limit');
  const collator = queryCollator(coll, checkCollation(cmd.collation));
  const filter = docArg(cmd, 'filter') ?? {};
  const sort = docArg(cmd, 'sort');
  const projection = docArg(cmd, 'projection');
  const variables = commandVariables(cmd, ctx.now());
  const predicate = compileQuery(filter, ctx.now(), variables, collator);
  if (sort && naturalDirection(sort) === null) compileSort(sort);
  if (projection && Object.keys(projection).length > 0) compileProjection(projection, { now: new Date(ctx.now()), query: filter });
  const request: PlanRequest = { filter, sort, projection, skip: skip ?? 0, limit: limit ?? 0, hint: cmd.hint, min: docArg(cmd, 'min'), max: docArg(cmd, 'max'), collator };
  const plan = planQuery(coll, request);
  if (coll && verbosity !== 'queryPlanner') runPlan(coll, plan, predicate, ctx);
  return sections(ctx, ns, plan, plan.root, verbosity, { sort: sort ?? null, projection: projection ?? null, collation: explicitCollation(cmd.collation) });
}

function explainCount(ctx: CommandContext, cmd: Document, verbosity: ExplainVerbosity): Explained {
  const { ns, coll } = target(ctx, cmd, 'count');
  const collator = queryCollator(coll, checkCollation(cmd.collation));
  const filter = docArg(cmd, 'query') ?? {};
  const predicate = compileQuery(filter, ctx.now(), undefined, collator);
  const skip = intArg(cmd, 'skip', 0);
  const limit = Math.abs(intArg(cmd, 'limit', 0));
  const plan = planQuery(coll, { filter, hint: cmd.hint, allowExpress: false, collator });
  let winning: ExplainNode;
  const counts = { nCounted: 0, nSkipped: 0 };
  const fast = coll !== undefined && Object.keys(filter).length === 0 && (cmd.hint === undefined || cmd.hint === null);
  const count = (stats: WrapperStage['stats']): void => {
    let toSkip = skip;
    runPlan(coll!, plan, predicate, ctx, () => {
      if (toSkip > 0) {
        toSkip--;
        counts.nSkipped++;
        return;
      }
      counts.nCounted++;
      if (limit > 0 && counts.nCounted >= limit) return false;
    });
    stats.isEOF = 1;
    stats.works = counts.nCounted + counts.nSkipped + 1;
    stats.needTime = counts.nCounted + counts.nSkipped;
  };
  if (fast) {
    const stats = wrapperStats();
    winning = { stage: 'RECORD_STORE_FAST_COUNT', stats, execFields: counts };
    if (verbosity !== 'queryPlanner') {
      let n = 0;
      for (const _ of coll.scan(ctx.now)) n++;
      counts.nSkipped = Math.min(skip, n);
      counts.nCounted = Math.max(0, n - skip);
      if (limit > 0) counts.nCounted = Math.min(counts.nCounted, limit);
      stats.isEOF = 1;
      stats.works = 1;
    }
  } else if (plan.root.stage === 'EOF') {
    winning = plan.root;
  } else {
    const stats = wrapperStats();
    winning = { stage: 'COUNT', stats, execFields: counts, input: plan.root };
    if (coll && verbosity !== 'queryPlanner') count(stats);
  }
  return sections(ctx, ns, plan, winning, verbosity, { count: true });
}

function explainDistinct(ctx: CommandContext, cmd: Document, verbosity: ExplainVerbosity): Explained {
  const { ns, coll } = target(ctx, cmd, 'distinct');
  const key = cmd.key as string;
  if (key.length === 0) throw new CommandError('BadValue', 'FieldPath cannot be constructed with empty string');
  const collator = queryCollator(coll, checkCollation(cmd.collation));
  const filter = docArg(cmd, 'query') ?? {};
  const predicate = compileQuery(filter, ctx.now(), undefined, collator);
  const plan = planQuery(coll, { filter, hint: cmd.hint, allowExpress: false, collator });
  if (coll && verbosity !== 'queryPlanner') runPlan(coll, plan, predicate, ctx);
  return sections(ctx, ns, plan, plan.root, verbosity, { distinct: key });
}

/** The one statement of an explained write batch (mongod: "explained write batches must be of size 1"). */
function singleStatement(cmd: Document, field: string): unknown {
  const list = cmd[field] as unknown[];
  if (list.length !== 1) throw new CommandError('InvalidLength', 'explained write batches must be of size 1');
  return list[0];
}

/**
 * True for `{_id: <value>}` with a plain value (the express write path): a point lookup by
 * binary key, so not for a string (document) `_id` under a collation.
 */
function isIdPoint(filter: Document, coll: Collection | undefined, collator: Collator | null): boolean {
  if (!isPlainIdPoint(filter)) return false;
  const v = bsonTypeOf(filter._id) === 'object' && '$eq' in (filter._id as Document) ? (filter._id as Document).$eq : filter._id;
  return !isCollatable(v) || (collator === null && !coll?.defaultCollation);
}

function isPlainIdPoint(filter: Document): boolean {
  const keys = Object.keys(filter);
  if (keys.length !== 1 || keys[0] !== '_id') return false;
  let v = filter._id;
  if (bsonTypeOf(v) === 'object') {
    const ops = Object.keys(v as Document);
    if (ops.length === 1 && ops[0] === '$eq') v = (v as Document).$eq;
    else if (ops.some((k) => k.startsWith('$'))) return false;
  }
  const t = bsonTypeOf(v);
  return t !== 'array' && t !== 'regex' && t !== 'null' && t !== 'undefined' && !(t === 'object' && Object.keys(v as Document).some((k) => k.startsWith('$')));
}

/** An EXPRESS_UPDATE / EXPRESS_DELETE stage, counting the one `_id` lookup. */
function expressWrite(ctx: CommandContext, coll: Collection | undefined, filter: Document, stage: 'EXPRESS_UPDATE' | 'EXPRESS_DELETE', verbosity: ExplainVerbosity, act: (rec: StoredDocument) => { modified: number; deleted: number }): WrapperStage {
  const exec: Document = { nReturned: 0, executionTimeMillisEstimate: 0, keysExamined: 0, docsExamined: 0, nWouldModify: 0, nWouldUpsert: 0, nWouldDelete: 0 };
  if (coll && verbosity !== 'queryPlanner') {
    const idValue = bsonTypeOf(filter._id) === 'object' && '$eq' in (filter._id as Document) ? (filter._id as Document).$eq : filter._id;
    const rec = coll.rawGet(keyString(idValue));
    if (rec) {
      exec.keysExamined = 1;
      if (coll.isVisible(rec, ctx.now())) {
        exec.docsExamined = 1;
        const done = act(rec);
        exec.nWouldModify = done.modified;
        exec.nWouldDelete = done.deleted;
      }
    }
  }
  return { stage, fields: { keyPattern: '{ _id: 1 }', indexName: '_id_' }, execFields: exec, stats: wrapperStats() };
}

function explainDelete(ctx: CommandContext, cmd: Document, verbosity: ExplainVerbosity): Explained {
  const { ns, coll } = target(ctx, cmd, 'delete');
  const stmt = parseDeleteStatement(singleStatement(cmd, 'deletes'), 0);
  const limit = stmt.multi ? 0 : 1;
  const collator = queryCollator(coll, checkCollation(stmt.collation));
  const filter = stmt.q;
  const variables = commandVariables(cmd, ctx.now());
  const predicate = compileQuery(filter, ctx.now(), variables, collator);
  if (isIdPoint(filter, coll, collator) && stmt.hint === undefined) {
    const plan = planQuery(coll, { filter, allowExpress: false, collator });
    const winning = expressWrite(ctx, coll, filter, 'EXPRESS_DELETE', verbosity, (rec) => ({ modified: 0, deleted: predicate(rec.doc) ? 1 : 0 }));
    return sections(ctx, ns, plan, coll ? winning : plan.root, verbosity, { delete: true });
  }
  const plan = planQuery(coll, { filter, hint: stmt.hint, allowExpress: false, collator });
  if (plan.root.stage === 'EOF') return sections(ctx, ns, plan, plan.root, verbosity, { delete: true });
  const counts = { nWouldDelete: 0 };
  const stats = wrapperStats();
  const winning: WrapperStage = { stage: 'DELETE', stats, execFields: counts, input: plan.root };
  if (coll && verbosity !== 'queryPlanner') {
    runPlan(coll, plan, predicate, ctx, () => {
      counts.nWouldDelete++;
      if (limit === 1) return false;
    });
    stats.isEOF = 1;
    stats.needTime = counts.nWouldDelete;
    stats.works = counts.nWouldDelete + 1;
  }
  return sections(ctx, ns, plan, winning, verbosity, { delete: true });
}

function explainUpdate(ctx: CommandContext, cmd: Document, verbosity: ExplainVerbosity): Explained {
  const { ns, coll } = target(ctx, cmd, 'update');
  const spec = parseUpdateStatement(singleStatement(cmd, 'updates'), 0);
  if (spec.sort !== undefined && spec.multi) throw new CommandError('FailedToParse', 'Cannot specify sort with multi=true');
  const vars = commandVariables(cmd, ctx.now());
  const nowMs = ctx.now();
  const parsed = parseUpdateRequest(spec, vars, nowMs, coll);
  const collator = parsed.collator;
  const now = new Date(nowMs);
  const modifies = (rec: StoredDocument): boolean => {
    const matchedField = parsed.matchKey ? parsed.matchKey(rec.doc) : undefined;
    return parsed.update.apply(rec.doc, { now, isUpsertInsert: false, matchedField }).modified;
  };
  if (isIdPoint(spec.q, coll, collator) && spec.hint === undefined && !spec.upsert && !spec.sort) {
    const plan = planQuery(coll, { filter: spec.q, allowExpress: false, collator });
    const winning = expressWrite(ctx, coll, spec.q, 'EXPRESS_UPDATE', verbosity, (rec) => ({ modified: parsed.predicate(rec.doc) && modifies(rec) ? 1 : 0, deleted: 0 }));
    return sections(ctx, ns, plan, coll ? winning : plan.root, verbosity, { update: true });
  }
  return updatePlan(ctx, ns, coll, spec.q, spec.sort, spec.hint, spec.multi, spec.upsert, parsed.predicate, modifies, verbosity, collator);
}

/** UPDATE over the plan of `filter`, counting matches and would-be modifications. */
function updatePlan(
  ctx: CommandContext,
  ns: string,
  coll: Collection | undefined,
  filter: Document,
  sort: Document | undefined,
  hint: unknown,
  multi: boolean,
  upsert: boolean,
  predicate: (doc: Document) => boolean,
  modifies: (rec: StoredDocument) => boolean,
  verbosity: ExplainVerbosity,
  collator: Collator | null,
): Explained {
  const plan = planQuery(coll, { filter, sort, hint, limit: sort && !multi ? 1 : 0, allowExpress: false, collator });
  const counts = { nMatched: 0, nWouldModify: 0, nWouldUpsert: 0 };
  const stats = wrapperStats();
  const winning: WrapperStage = { stage: 'UPDATE', stats, execFields: counts, input: plan.root };
  if (verbosity !== 'queryPlanner') {
    if (coll) {
      runPlan(coll, plan, predicate, ctx, (rec) => {
        counts.nMatched++;
        if (modifies(rec)) counts.nWouldModify++;
        if (!multi) return false;
      });
    }
    if (counts.nMatched === 0 && upsert) counts.nWouldUpsert = 1;
    stats.isEOF = 1;
    stats.needTime = counts.nMatched;
    stats.works = counts.nMatched + 1;
  }
  return sections(ctx, ns, plan, plan.root.stage === 'EOF' && !upsert ? plan.root : winning, verbosity, { update: true });
}

function explainFindAndModify(ctx: CommandContext, cmd: Document, commandName: string, verbosity: ExplainVerbosity): Explained {
  const { ns, coll } = target(ctx, cmd, commandName);
  const truth = (v: unknown): boolean => v === true || (isNumber(v) && toDouble(v) !== 0);
  const remove = truth(cmd.remove);
  const upsert = truth(cmd.upsert);
  if (!remove && cmd.update === undefined) throw new CommandError('FailedToParse', 'Either an update or remove=true must be specified');
  if (remove && cmd.update !== undefined) throw new CommandError('FailedToParse', 'Cannot specify both an update and remove=true');
  const filter = docArg(cmd, 'query') ?? {};
  const sort = docArg(cmd, 'sort');
  if (sort) compileSort(sort);
  const collator = queryCollator(coll, checkCollation(cmd.collation));
  const vars = commandVariables(cmd, ctx.now());
  const nowMs = ctx.now();
  const predicate = compileQuery(filter, nowMs, vars, collator);
  if (remove) {
    const plan = planQuery(coll, { filter, sort, hint: cmd.hint, limit: sort ? 1 : 0, allowExpress: false, collator });
    if (plan.root.stage === 'EOF') return sections(ctx, ns, plan, plan.root, verbosity, { findAndModify: true });
    const counts = { nWouldDelete: 0 };
    const stats = wrapperStats();
    const winning: WrapperStage = { stage: 'DELETE', stats, execFields: counts, input: plan.root };
    if (coll && verbosity !== 'queryPlanner') {
      runPlan(coll, plan, predicate, ctx, () => {
        counts.nWouldDelete++;
        return false;
      });
      stats.isEOF = 1;
      stats.works = counts.nWouldDelete + 1;
      stats.needTime = counts.nWouldDelete;
    }
    return sections(ctx, ns, plan, winning, verbosity, { findAndModify: true });
  }
  const update = compileUpdate(cmd.update as Document | Document[], { arrayFilters: Array.isArray(cmd.arrayFilters) ? (cmd.arrayFilters as Document[]) : undefined, variables: undefined });
  const now = new Date(nowMs);
  const modifies = (rec: StoredDocument): boolean => update.apply(rec.doc, { now, isUpsertInsert: false }).modified;
  return updatePlan(ctx, ns, coll, filter, sort, cmd.hint, false, upsert, predicate, modifies, verbosity, collator);
}
