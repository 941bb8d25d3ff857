/**
 * `create`: an explicit collection, with the options Mayfly supports, among them
 * `versioned: { maxVersions, timeToLive, maxTimeDeviation }` (a versioned collection, TTL.md)
 * and `collation`, the collection's default collation (stored spelled out, as listCollections
 * shows it; `{ locale: 'simple' }` is no collation).
 */
import type { Document } from '../../bson.js';
import { CommandError } from '../../errors/command_error.js';
import { normaliseCollation } from '../../storage/indexes/collation.js';
import { valuesEqual } from '../../storage/values/compare.js';
import { parseVersionedOptions, versionedOptionsDocument } from '../../ttl/policies/versioned.js';
import { IdlRules, collectionArg } from '../args.js';
import type { ArgRule, CommandDefinition } from '../types.js';

/** Options mongod knows that Mayfly does not implement yet: refused with 238, never ignored. */
const NOT_IMPLEMENTED_OPTIONS = ['capped', 'validator', 'viewOn', 'pipeline', 'timeseries', 'clusteredIndex', 'changeStreamPreAndPostImages', 'encryptedFields'];

// Types as create.idl: safeBool, safeInt64 (with its validators), array<object>, …
const CREATE_ARGS = {
    capped: IdlRules.safeBool,
    size: IdlRules.safeInt64({ gte: 1, lte: 1125899906842624 }),
    max: IdlRules.safeInt64({ lt: 2147483648 }),
    autoIndexId: IdlRules.safeBool,
    validator: { type: 'object' },
    validationLevel: { type: 'string' },
    validationAction: { type: 'string' },
    collation: { type: 'object' },
    viewOn: { type: 'string' },
    pipeline: IdlRules.arrayOfObjects(),
    timeseries: { type: 'object' },
    clusteredIndex: { type: ['bool', 'object'] },
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

/** The `create` command. */
export const create: CommandDefinition = {
  name: 'create',
  target: { type: 'string' },
  args: CREATE_ARGS,
  help: 'explicitly creates a collection or view',
  run(ctx, cmd) {
    const name = collectionArg(cmd, 'create', ctx.db);
    if (cmd.expireAfterSeconds !== undefined && cmd.expireAfterSeconds !== null && cmd.clusteredIndex === undefined && cmd.timeseries === undefined) {
      throw new CommandError(
        'InvalidOptions',
        "'expireAfterSeconds' is only supported on time-series collections or when the 'clusteredIndex' option is specified",
      );
    }
    for (const option of NOT_IMPLEMENTED_OPTIONS) {
      if (cmd[option] !== undefined && cmd[option] !== null && cmd[option] !== false) {
        throw new CommandError('NotImplemented', `The '${option}' option of create is not supported by Mayfly yet`);
      }
    }
    // `versioned: { maxVersions, timeToLive, maxTimeDeviation }` (TTL.md): validated and stored
    // with every field filled in, so listCollections shows the limits in force.
    const versioned = cmd.versioned === undefined || cmd.versioned === null ? undefined : versionedOptionsDocument(parseVersionedOptions(cmd.versioned, 'create'));
    const collation = cmd.collation === undefined || cmd.collation === null ? null : normaliseCollation(cmd.collation as Document);
    const options: Document = {};
    for (const [key, value] of Object.entries(cmd)) {
      if (key === 'create' || key.startsWith('$') || !(key in CREATE_ARGS)) continue;
      if (key === 'versioned') {
        if (versioned) options.versioned = versioned;
        continue;
      }
      if (key === 'collation') {
        if (collation) options.collation = collation;
        continue;
      }
      options[key] = value;
    }
    const existing = ctx.server.catalog.get(ctx.db, name);
    if (existing) {
      if (valuesEqual(existing.options, options)) return {};
      throw new CommandError('NamespaceExists', `Collection ${ctx.db}.${name} already exists.`);
    }
    ctx.server.catalog.create(ctx.db, name, options);
    return {};
  },
};
