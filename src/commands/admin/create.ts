/**
 * `create`: an explicit collection or view, with the options Mayfly supports:
 *   - `collation`: the collection's default collation (stored spelled out, as listCollections
 *     shows it; `{ locale: 'simple' }` is no collation);
 *   - `validator`, `validationLevel`, `validationAction`: document validation
 *     (`src/storage/validation/`); an empty validator is no validator;
 *   - `viewOn`, `pipeline` (and the simple `collation`): a view (`src/storage/views.ts`), checked
 *     as mongod checks it (the pipeline parsed, no $out/$merge, no cycle) and stored in
 *     `system.views`;
 *   - `capped: true`, `size`, `max`: a capped collection (`src/storage/capped.ts`), `size` in
 *     1…2^50 and `max` below 2^31 (0 or less: no limit, stored as 2147483647), as integers;
 *   - `versioned: { maxVersions, timeToLive, maxTimeDeviation }` (a versioned collection, TTL.md).
 * Creating again with the same options is a no-op; other options give 48 NamespaceExists.
 * In a transaction (4.4+) the collection is the transaction's until it commits; an existing one
 * is always 48, and views, time-series and system collections are refused (263).
 */
import { Long, UUID, type Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { formatValue } from '../../storage/values/format.js';
import { UNLIMITED_CAPPED_DOCS } from '../../storage/capped.js';
import { defaultIndexSpecs } from '../../storage/timeseries/kind.js';
import { normaliseCollation } from '../../storage/indexes/collation.js';
import { intOrLong, isNumber, safeNumberLong, toDouble } from '../../storage/values/numeric.js';
import { checkValidatorNamespace, compileValidator, parseValidationAction, parseValidationLevel } from '../../storage/validation/validator.js';
import { valuesEqual } from '../../storage/values/compare.js';
import { checkViewGraph, checkViewPipeline, type ViewDefinition } from '../../storage/views.js';
import { parseVersionedOptions, versionedOptionsDocument } from '../../ttl/policies/versioned.js';
import { IdlRules, collectionArg } from '../args.js';
import { checkIdIndexOption } from './_internal/id_index.js';
import { checkStorageEngineOptions } from './_internal/storage_engine.js';
import { CLUSTERED_INDEX_ARG, KIND_FIELDS, TIMESERIES_ARG, collectionKindOptions } from './_internal/timeseries_options.js';
import { parseChangeStreamImagesOption } from '../../storage/change_log.js';
import type { ArgRule, CommandContext, CommandDefinition } from '../types.js';

/** Options mongod knows that Mayfly does not implement yet: refused with 238, never ignored. */
const NOT_IMPLEMENTED_OPTIONS = ['encryptedFields'];

// Types as create.idl: safeBool, safeInt64 (with its validators), array<object>, …
const CREATE_ARGS = {
    capped: IdlRules.safeBool,
    size: IdlRules.safeInt64(), // its range (2 BadValue in 8.2) is checked with the capped rules
    max: IdlRules.safeInt64(),
    autoIndexId: IdlRules.safeBool,
    validator: { type: 'object' },
    validationLevel: { type: 'string' },
    validationAction: { type: 'string' },
    collation: { type: 'object' },
    viewOn: { type: 'string' },
    pipeline: IdlRules.arrayOfObjects(),
    timeseries: TIMESERIES_ARG,
    clusteredIndex: CLUSTERED_INDEX_ARG,
    expireAfterSeconds: IdlRules.safeInt64(),
    idIndex: { type: 'object' },
    storageEngine: { type: 'object' },
    indexOptionDefaults: { type: 'object' },
    changeStreamPreAndPostImages: { type: 'object' },
    encryptedFields: { type: 'object' },
    flags: IdlRules.safeInt64(),
    temp: IdlRules.safeBool,
    versioned: { type: 'object' },
} as const satisfies Record<string, ArgRule>;

/** The order in which mongod lists a collection's options (CollectionOptions::appendBSON). */
const OPTIONS_ORDER = [
  'capped',
  'size',
  'max',
  'autoIndexId',
  'temp',
  'changeStreamPreAndPostImages',
  'storageEngine',
  'indexOptionDefaults',
  'validator',
  'validationLevel',
  'validationAction',
  'collation',
  'viewOn',
  'pipeline',
  'clusteredIndex',
  'expireAfterSeconds',
  'timeseries',
  'encryptedFields',
];

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** The largest capped `size` (1 PB). */
export const MAX_CAPPED_SIZE = 1125899906842624n;

/** Checks a capped `size` (`<field>` in messages) and returns it as stored. */
export function parseCappedSize(field: string, value: unknown): number | Long {
  const size = safeNumberLong(value)!;
  if (size < 1n) throw new CommandError('BadValue', `BSON field '${field}' value must be >= 1, actual value '${size}'`);
  if (size > MAX_CAPPED_SIZE) throw new CommandError('BadValue', `BSON field '${field}' value must be <= ${MAX_CAPPED_SIZE}, actual value '${size}'`);
  return intOrLong(size);
}

/** Checks a capped `max` (`<field>` in messages) and returns it as stored (≤ 0: no limit). */
export function parseCappedMax(field: string, value: unknown): number {
  const max = safeNumberLong(value)!;
  if (max >= 2147483648n) throw new CommandError('BadValue', `BSON field '${field}' value must be < 2147483648, actual value '${max}'`);
  return max <= 0n ? UNLIMITED_CAPPED_DOCS : Number(max);
}

/** `capped`, `size`, `max` of create, checked in mongod's order; the options to store. */
function cappedOptions(cmd: Document): Document | undefined {
  const size = present(cmd.size) ? parseCappedSize('size', cmd.size) : undefined;
  const max = present(cmd.max) ? parseCappedMax('max', cmd.max) : undefined;
  const capped = typeof cmd.capped === 'boolean' ? cmd.capped : isNumber(cmd.capped) && toDouble(cmd.capped) !== 0;
  if (capped && size === undefined) throw new CommandError('InvalidOptions', "the 'size' field is required when 'capped' is true");
  if ((size !== undefined || max !== undefined) && !capped) {
    throw new CommandError('InvalidOptions', "the 'capped' field needs to be true when either the 'size' or 'max' fields are present");
  }
  if (!capped) return undefined;
  const out: Document = { capped: true, size };
  if (max !== undefined) out.max = max;
  return out;
}

/** `options` with mongod's listing order first, then the rest as given. */
export function orderCollectionOptions(options: Document): Document {
  const out: Document = {};
  for (const key of OPTIONS_ORDER) if (key in options) out[key] = options[key];
  for (const [key, value] of Object.entries(options)) if (!(key in out)) out[key] = value;
  return out;
}

/** The `create` command. */
export const create: CommandDefinition = {
  name: 'create',
  target: IdlRules.collectionName,
  args: CREATE_ARGS,
  help: 'explicitly creates a collection or view',
  run(ctx, cmd) {
    const name = collectionArg(cmd, 'create', ctx.db);
    // IDL enumerations first, as the command's parser checks them.
    if (present(cmd.validationLevel)) parseValidationLevel('create', cmd.validationLevel);
    if (present(cmd.validationAction)) parseValidationAction('create', cmd.validationAction);
    const kind = collectionKindOptions(`${ctx.db}.${name}`, cmd, ctx.now()); // time-series and clustered (_internal/timeseries_options.ts)
    if (cmd.expireAfterSeconds !== undefined && cmd.expireAfterSeconds !== null && cmd.clusteredIndex === undefined && cmd.timeseries === undefined) {
      throw new CommandError(
        'InvalidOptions',
        "'expireAfterSeconds' is only supported on time-series collections or when the 'clusteredIndex' option is specified",
      );
    }
    const capped = cappedOptions(cmd);
    checkIdIndexOption(cmd);
    checkStorageEngineOptions(cmd);
    if (present(cmd.pipeline) && !present(cmd.viewOn)) throw new CommandError('InvalidOptions', "'pipeline' requires 'viewOn' to also be specified");
    for (const option of NOT_IMPLEMENTED_OPTIONS) {
      if (cmd[option] !== undefined && cmd[option] !== null && cmd[option] !== false) {
        throw new CommandError('NotImplemented', `The '${option}' option of create is not supported by Mayfly yet`);
      }
    }
    // `changeStreamPreAndPostImages: {enabled}`: kept in the options when enabled (change streams' images).
    const images = present(cmd.changeStreamPreAndPostImages) ? parseChangeStreamImagesOption(cmd.changeStreamPreAndPostImages) : false;
    const inTransaction = ctx.server.catalog.transactionDdl !== null;
    if (inTransaction) checkCreateInTransaction(ctx.db, name, cmd);
    if (present(cmd.viewOn)) return createView(ctx, name, cmd);
    // `versioned: { maxVersions, timeToLive, maxTimeDeviation }` (TTL.md): validated and stored
    // with every field filled in, so listCollections shows the limits in force.
    const versioned = cmd.versioned === undefined || cmd.versioned === null ? undefined : versionedOptionsDocument(parseVersionedOptions(cmd.versioned, 'create'));
    const collation = cmd.collation === undefined || cmd.collation === null ? null : normaliseCollation(cmd.collation as Document);
    const validator = cmd.validator as Document | undefined | null;
    const hasValidator = present(validator) && Object.keys(validator!).length > 0;
    if (hasValidator) {
      compileValidator(validator!);
      checkValidatorNamespace(ctx.db, name, new UUID().toHexString(true));
    }
    const given: Document = {};
    for (const [key, value] of Object.entries(cmd)) {
      if (key === 'create' || key.startsWith('$') || !(key in CREATE_ARGS)) continue;
      if (key === 'versioned') {
        if (versioned) given.versioned = versioned;
        continue;
      }
      if (key === 'collation') {
        if (collation) given.collation = collation;
        continue;
      }
      if (key === 'validator' && !hasValidator) continue; // an empty validator is no validator
      if (key === 'capped' || key === 'size' || key === 'max' || KIND_FIELDS.has(key)) continue;
      if (key === 'changeStreamPreAndPostImages') {
        if (images) given.changeStreamPreAndPostImages = { enabled: true };
        continue;
      }
      given[key] = value;
    }
    if (capped) Object.assign(given, capped);
    if (kind) Object.assign(given, kind);
    const options = orderCollectionOptions(given);
    const catalog = ctx.server.catalog;
    const existing = catalog.get(ctx.db, name);
    if (existing) {
      // In a transaction NamespaceExists stands (it aborts the transaction), whatever the options.
      if (!inTransaction && valuesEqual(existing.options, options)) return {};
      throw new CommandError('NamespaceExists', `Collection ${ctx.db}.${name} already exists.`);
    }
    const created = catalog.create(ctx.db, name, options);
    for (const spec of defaultIndexSpecs(options)) created.addIndex(spec, ctx.now()); // a time-series collection's meta/time index
    return {};
  },
};

/**
 * What a transaction may not create (mongod's createCollection, 263): a view, a time-series
 * collection, a system collection. The collection it creates is part of it (Catalog.transactionDdl).
 */
function checkCreateInTransaction(db: string, name: string, cmd: Document): void {
  if (present(cmd.viewOn)) throw new CommandError('OperationNotSupportedInTransaction', 'Cannot create a view in a multi-document transaction.');
  if (present(cmd.timeseries)) {
    throw new CommandError('OperationNotSupportedInTransaction', 'Cannot create a time-series collection in a multi-document transaction.');
  }
  if (name.startsWith('system.')) throw new CommandError('OperationNotSupportedInTransaction', `Cannot create system collection ${db}.${name} within a transaction.`);
}

/** `create` with `viewOn`: checks the definition as mongod does and stores it. */
function createView(ctx: CommandContext, name: string, cmd: Document): Document {
  const viewOn = cmd.viewOn as string;
  if (viewOn === '') throw new CommandError('BadValue', "'viewOn' cannot be empty");
  let collation: Document | undefined;
  if (present(cmd.collation)) {
    const normalised = normaliseCollation(cmd.collation as Document);
    if (normalised) throw new CommandError('NotImplemented', 'Views with a collation other than the simple collation are not supported by Mayfly yet');
    collation = undefined;
  }
  const catalog = ctx.server.catalog;
  const def: ViewDefinition = { db: ctx.db, name, viewOn, pipeline: (cmd.pipeline as Document[] | undefined) ?? [], ...(collation ? { collation } : {}) };
  const existing = catalog.view(ctx.db, name);
  if (existing) {
    // The same definition again is a no-op; mongod says what differs (checkCollectionOptions).
    const ns = `${ctx.db}.${name}`;
    if (existing.viewOn !== def.viewOn) {
      throw new CommandError('NamespaceExists', `namespace ${ns} already exists, but is a view on ${ctx.db}.${existing.viewOn} rather than ${ctx.db}.${def.viewOn}`);
    }
    if (!valuesEqual(existing.pipeline, def.pipeline)) {
      const asObject = (stages: readonly Document[]): Document => Object.fromEntries(stages.map((s, i) => [String(i), s]));
      throw new CommandError(
        'NamespaceExists',
        `namespace ${ns} already exists, but with pipeline ${formatValue(asObject(existing.pipeline))} rather than ${formatValue(asObject(def.pipeline))}`,
      );
    }
    return {};
  }
  if (catalog.get(ctx.db, name)) throw new CommandError('NamespaceExists', `Collection ${ctx.db}.${name} already exists.`);
  checkViewPipeline('create', ctx.db, name, def.pipeline, ctx.now());
  checkViewGraph(catalog, ctx.db, name, viewOn);
  catalog.putView(def, ctx.now());
  return {};
}
