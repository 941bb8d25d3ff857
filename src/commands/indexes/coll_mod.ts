/**
 * `collMod`: changes an index's TTL (`expireAfterSeconds`, by name or key pattern, converting a
 * plain single-field index to TTL) and `hidden`, with mongod 8.2's checks, order and reply
 * (`expireAfterSeconds_old`/`_new` as Int64, `hidden_old`/`_new`); on the `_ts` index it changes
 * the Cosmos container TTL (TTL.md). `versioned: { maxVersions?, timeToLive?, maxTimeDeviation? }`
 * changes the limits of a versioned collection (replying `versioned_old`/`versioned_new`).
 * `validator`, `validationLevel`, `validationAction` change document validation (setting a level
 * or an action writes both, as mongod does; an empty validator removes it). On a view only
 * `viewOn` and `pipeline` are allowed: each replaces its half of the definition, checked as
 * `create` checks it. `cappedSize`/`cappedMax` rebound a capped collection. Options that only
 * apply to views, time-series, capped or clustered collections fail as mongod fails them on a
 * plain collection (time-series and clustered changes: admin/_internal/timeseries_coll_mod.ts);
 * `unique`, `prepareUnique`, `forceNonUnique` and `dryRun` convert an index to unique
 * (_internal/unique_conversion.ts); `changeStreamPreAndPostImages` turns the pre-images of change
 * streams on or off.
 * Source: mongo/src/mongo/db/catalog/coll_mod.cpp and coll_mod_index.cpp.
 */
import { Long, type Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { formatValue } from '../../storage/values/format.js';
import type { Collection } from '../../storage/collection.js';
import { bsonTypeOf } from '../../storage/values/bson_type.js';
import { isNumber, toDouble, safeNumberInt, safeNumberLong } from '../../storage/values/numeric.js';
import { valuesEqual } from '../../storage/values/compare.js';
import { checkValidatorNamespace, compileValidator, parseValidationAction, parseValidationLevel } from '../../storage/validation/validator.js';
import { checkViewGraph, checkViewPipeline, type ViewDefinition } from '../../storage/views.js';
import { cappedLimitsOf } from '../../storage/capped.js';
import { timeseriesOf } from '../../storage/timeseries/options.js';
import { orderCollectionOptions, parseCappedMax, parseCappedSize } from '../admin/create.js';
import { COLLMOD_EXPIRE_ARG, COLLMOD_TIMESERIES_ARG, planKindChange } from '../admin/_internal/timeseries_coll_mod.js';
import { GENERIC_ARGUMENTS, IdlRules, collectionArg, wrongTypeError } from '../args.js';
import { checkUniqueRequest, planUniqueChange } from './_internal/unique_conversion.js';
import type { ArgType, CommandContext, CommandDefinition } from '../types.js';
import { parseChangeStreamImagesOption } from '../../storage/change_log.js';

/** The fields of `collMod.index` (mongod's `CollModIndex` IDL struct) and their types. */
const INDEX_FIELDS: Readonly<Record<string, readonly ArgType[]>> = {
  name: ['string'],
  keyPattern: ['object'],
  expireAfterSeconds: ['number'],
  hidden: ['bool', 'number'],
  unique: ['bool', 'number'],
  prepareUnique: ['bool', 'number'],
  forceNonUnique: ['bool', 'number'],
};

/** A parsed `collMod.index` (null fields count as absent, as in mongod's IDL). */
interface IndexRequest {
  name?: string;
  keyPattern?: Document;
  expireAfterSeconds?: unknown;
  hidden?: boolean;
  unique?: boolean;
  prepareUnique?: boolean;
  forceNonUnique?: boolean;
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function asBool(value: unknown): boolean {
  return typeof value === 'boolean' ? value : toDouble(value) !== 0;
}

/** Parses `collMod.index` with the IDL's errors (40415 unknown field, 14 wrong type). */
function parseIndexRequest(raw: unknown): IndexRequest | null {
  if (!present(raw)) return null;
  const doc = raw as Document;
  const out: IndexRequest = {};
  for (const [field, value] of Object.entries(doc)) {
    const types = INDEX_FIELDS[field];
    if (!types) throw new CommandError('IDLUnknownField', `BSON field 'collMod.index.${field}' is an unknown field.`);
    if (!present(value)) continue;
    const ok = types.some((t) => (t === 'string' ? typeof value === 'string' : t === 'object' ? bsonTypeOf(value) === 'object' : t === 'bool' ? typeof value === 'boolean' : isNumber(value)));
    if (!ok) throw wrongTypeError('collMod.index', field, value, types);
    switch (field) {
      case 'name':
        out.name = value as string;
        break;
      case 'keyPattern':
        out.keyPattern = value as Document;
        break;
      case 'expireAfterSeconds':
        out.expireAfterSeconds = value;
        break;
      default:
        out[field as 'hidden' | 'unique' | 'prepareUnique' | 'forceNonUnique'] = asBool(value);
    }
  }
  return out;
}

/** True when two key patterns are the same fields, in the same order, with equal values. */
function sameKeyPattern(a: Document, b: Document): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i]) && valuesEqual(a, b);
}

/** The index spec `request` names, or mongod's 27 IndexNotFound / 181 AmbiguousIndexKeyPattern. */
function findIndex(coll: Collection, request: IndexRequest): Document {
  const specs = coll.indexSpecs();
  if (request.name !== undefined) {
    const spec = specs.find((s) => s.name === request.name);
    if (!spec) throw new CommandError('IndexNotFound', `cannot find index ${request.name} for ns ${coll.ns}`);
    return spec;
  }
  const keyPattern = request.keyPattern!;
  const matches = specs.filter((s) => sameKeyPattern(s.key as Document, keyPattern));
  if (matches.length > 1) {
    throw new CommandError(
      'AmbiguousIndexKeyPattern',
      `index keyPattern ${formatValue(keyPattern)} matches ${matches.length} indexes, must use index name. Conflicting indexes:${formatValue(matches[0])}, ${formatValue(matches[1])}`,
    );
  }
  if (matches.length === 0) throw new CommandError('IndexNotFound', `cannot find index ${formatValue(keyPattern)} for ns ${coll.ns}`);
  return matches[0]!;
}

/** `spec` without `field`, with `field: value` appended when `value` is defined (mongod's catalog update). */
function withFieldLast(spec: Document, field: string, value: unknown): Document {
  const out: Document = {};
  for (const [k, v] of Object.entries(spec)) if (k !== field) out[k] = v;
  if (value !== undefined) out[field] = value;
  return out;
}

/** Checks an index modification and returns a function that applies it and fills the reply. */
function planIndexChange(ctx: CommandContext, coll: Collection, request: IndexRequest): (reply: Document) => void {
  if (request.name !== undefined && request.keyPattern !== undefined) {
    throw new CommandError('InvalidOptions', 'Cannot specify both key pattern and name.');
  }
  if (request.name === undefined && request.keyPattern === undefined) {
    throw new CommandError('InvalidOptions', 'Must specify either index name or key pattern.');
  }
  const wantsTtl = request.expireAfterSeconds !== undefined;
  if (!wantsTtl && request.hidden === undefined && request.unique === undefined && request.prepareUnique === undefined && request.forceNonUnique === undefined) {
    throw new CommandError('InvalidOptions', 'no expireAfterSeconds, hidden, unique, or prepareUnique field');
  }
  checkUniqueRequest(request);
  const ttl = ctx.server.ttl;
  if (wantsTtl && safeNumberInt(request.expireAfterSeconds)! < 0) {
    // mongod rejects a negative value before looking the index up; only the Cosmos `_ts`
    // index, where -1 is valid, needs the index first.
    let target: Document | undefined;
    try {
      target = findIndex(coll, request);
    } catch {
      target = undefined;
    }
    if (!target) throw new CommandError('InvalidOptions', "TTL index 'expireAfterSeconds' option cannot be less than 0");
    ttl.collModExpireAfterSeconds(target, request.expireAfterSeconds);
  }
  const target = findIndex(coll, request);
  const seconds = wantsTtl ? ttl.collModExpireAfterSeconds(target, request.expireAfterSeconds) : undefined;
  if (request.hidden !== undefined && target.name === '_id_') throw new CommandError('BadValue', "can't hide _id index");
  const uniqueChange = planUniqueChange(coll, target, request, ctx.now());
  return (reply) => {
    let spec = target;
    if (seconds !== undefined) {
      const had = 'expireAfterSeconds' in spec;
      const old = had ? safeNumberLong(spec.expireAfterSeconds) : undefined;
      if (old !== undefined) reply.expireAfterSeconds_old = Long.fromBigInt(old);
      reply.expireAfterSeconds_new = Long.fromNumber(seconds);
      if (old !== BigInt(seconds)) spec = withFieldLast(spec, 'expireAfterSeconds', seconds);
    }
    if (request.hidden !== undefined) {
      const wasHidden = spec.hidden === true;
      if (wasHidden !== request.hidden) {
        reply.hidden_old = wasHidden;
        reply.hidden_new = request.hidden;
        // mongod removes `hidden` from the catalog rather than storing `hidden: false`.
        spec = withFieldLast(spec, 'hidden', request.hidden ? true : undefined);
      }
    }
    if (uniqueChange) spec = uniqueChange(spec, reply);
    if (spec !== target) {
      coll.replaceIndexSpec(target.name as string, spec);
      ttl.indexModified(coll);
    }
  };
}

function notImplemented(option: string): CommandError {
  return new CommandError('NotImplemented', `The '${option}' option of collMod is not supported by Mayfly yet`);
}

/** The `collMod` command. */
export const collMod: CommandDefinition = {
  name: 'collMod',
  target: IdlRules.collectionName,
  concerns: { readConcern: 'localOnly', writeConcern: true },
  args: {
    index: { type: 'object' },
    validator: { type: 'object' },
    validationLevel: { type: 'string' },
    validationAction: { type: 'string' },
    viewOn: { type: 'string' },
    pipeline: { type: 'array' },
    changeStreamPreAndPostImages: { type: 'object' },
    expireAfterSeconds: COLLMOD_EXPIRE_ARG,
    timeseries: COLLMOD_TIMESERIES_ARG,
    timeseriesBucketsMayHaveMixedSchemaData: { type: ['bool', 'number'] },
    dryRun: { type: ['bool', 'number'] },
    cappedSize: { type: 'number' },
    cappedMax: { type: 'number' },
    collectionUUID: { type: 'any' },
    isTimeseriesNamespace: { type: 'bool' },
    versioned: { type: 'object' },
  },
  help: 'Sets collection options.\nExample: { collMod: \'foo\', index: { keyPattern: { a: 1 }, expireAfterSeconds: 600 } }',
  run(ctx, cmd) {
    const name = collectionArg(cmd, 'collMod', ctx.db);
    // IDL enumerations first, as the command's parser checks them.
    const level = present(cmd.validationLevel) ? parseValidationLevel('collMod', cmd.validationLevel) : undefined;
    const action = present(cmd.validationAction) ? parseValidationAction('collMod', cmd.validationAction) : undefined;
    const cappedSize = present(cmd.cappedSize) ? parseCappedSize('cappedSize', cmd.cappedSize) : undefined;
    const cappedMax = present(cmd.cappedMax) ? parseCappedMax('cappedMax', cmd.cappedMax) : undefined;
    const request = parseIndexRequest(cmd.index);
    const dryRun = present(cmd.dryRun) && asBool(cmd.dryRun);
    if (dryRun) {
      if (!request) throw new CommandError('InvalidOptions', 'dry run mode requires an valid index modification.');
      if (request.unique !== true) throw new CommandError('InvalidOptions', 'dry run mode requires an index modification with unique: true.');
    }
    const coll = ctx.server.catalog.get(ctx.db, name);
    if (!coll) {
      const view = ctx.server.catalog.view(ctx.db, name);
      if (view) return modifyView(ctx, view, cmd);
      throw new CommandError('NamespaceNotFound', 'ns does not exist');
    }
    if (present(cmd.collectionUUID)) throw notImplemented('collectionUUID');
    const kindChange = planKindChange(coll, cmd, ctx.now()); // time-series and clustered (admin/_internal/timeseries_coll_mod.ts)
    // A time-series collection ignores the capped options (mongod passes collMod to its buckets).
    if ((cappedSize !== undefined || cappedMax !== undefined) && !coll.capped && !timeseriesOf(coll.options)) throw new CommandError('InvalidOptions', 'Collection must be capped.');
    const apply = request ? planIndexChange(ctx, coll, request) : null;
    if (dryRun) return {}; // the unique conversion checked (its duplicates: 359), nothing changed
    const validator = present(cmd.validator) ? (cmd.validator as Document) : undefined;
    if (validator && Object.keys(validator).length > 0) {
      compileValidator(validator);
      checkValidatorNamespace(ctx.db, name, coll.uuid.toHexString(true));
    }
    for (const option of ['pipeline', 'viewOn']) {
      if (present(cmd[option])) throw new CommandError('InvalidOptions', `option only supported on a view: ${option}`);
    }
    const images = present(cmd.changeStreamPreAndPostImages) ? parseChangeStreamImagesOption(cmd.changeStreamPreAndPostImages) : undefined;
    // `versioned: {...}` changes the limits of a versioned collection (TTL.md); 72 on any other.
    const versioned = present(cmd.versioned) ? (cmd.versioned as Document) : null;
    if (versioned) ctx.server.ttl.checkVersionedChange(coll, versioned);
    const reply: Document = {};
    apply?.(reply);
    if (validator || level || action || cappedSize !== undefined || cappedMax !== undefined || images !== undefined) {
      const options: Document = { ...coll.options };
      // changeStreamPreAndPostImages: {enabled: true} kept in the options; false removes it.
      if (images === true) options.changeStreamPreAndPostImages = { enabled: true };
      else if (images === false) delete options.changeStreamPreAndPostImages;
      // cappedSize/cappedMax rebound a capped collection; the next insert evicts what no longer fits.
      if (cappedSize !== undefined && coll.capped) options.size = cappedSize;
      if (cappedMax !== undefined && coll.capped) options.max = cappedMax;
      if (validator) {
        if (Object.keys(validator).length > 0) options.validator = validator;
        else delete options.validator;
      }
      if (level || action) {
        options.validationLevel = level ?? options.validationLevel ?? 'strict';
        options.validationAction = action ?? options.validationAction ?? 'error';
      }
      coll.options = orderCollectionOptions(options);
      const limits = cappedLimitsOf(coll.options);
      if (coll.capped && limits) coll.capped.limits = limits;
    }
    if (versioned) {
      const { before, after } = ctx.server.ttl.modifyVersioned(coll, versioned);
      reply.versioned_old = before;
      reply.versioned_new = after;
    }
    if (kindChange) coll.options = orderCollectionOptions(kindChange(coll.options));
    ctx.server.catalog.collectionModified(coll, reply);
    return reply;
  },
};

/** collMod on a view: only `viewOn` and `pipeline`, each replacing its half of the definition. */
function modifyView(ctx: CommandContext, view: ViewDefinition, cmd: Document): Document {
  for (const field of Object.keys(cmd)) {
    if (field === 'collMod' || field === 'viewOn' || field === 'pipeline' || field === 'collectionUUID' || field === 'dryRun') continue;
    if (field.startsWith('$') || GENERIC_ARGUMENTS.has(field) || cmd[field] === undefined) continue;
    throw new CommandError('InvalidOptions', `option not supported on a view: ${field}`);
  }
  const viewOn = present(cmd.viewOn) ? (cmd.viewOn as string) : view.viewOn;
  const pipeline = present(cmd.pipeline) ? (cmd.pipeline as Document[]) : view.pipeline;
  if (viewOn === '') throw new CommandError('BadValue', "'viewOn' cannot be empty");
  checkViewPipeline('collMod', view.db, view.name, pipeline, ctx.now());
  checkViewGraph(ctx.server.catalog, view.db, view.name, viewOn);
  ctx.server.catalog.putView({ ...view, viewOn, pipeline }, ctx.now());
  return {};
}
