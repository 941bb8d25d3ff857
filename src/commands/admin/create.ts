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
import { collectionArg } from '../args.js';
import type { ArgRule, CommandDefinition } from '../types.js';

/** Options mongod knows that Mayfly does not implement yet: refused with 238, never ignored. */
const NOT_IMPLEMENTED_OPTIONS = ['capped', 'validator', 'viewOn', 'pipeline', 'timeseries', 'clusteredIndex', 'changeStreamPreAndPostImages', 'encryptedFields'];

const CREATE_ARGS = {
    capped: { type: 'bool' },
    size: { type: 'number' },
    max: { type: 'number' },
    autoIndexId: { type: 'bool' },
    validator: { type: 'object' },
    validationLevel: { type: 'string' },
    validationAction: { type: 'string' },
    collation: { type: 'object' },
    viewOn: { type: 'string' },
    pipeline: { type: 'array' },
    timeseries: { type: 'object' },
    clusteredIndex: { type: ['bool', 'object'] },
    expireAfterSeconds: { type: 'number' },
    idIndex: { type: 'object' },
    storageEngine: { type: 'object' },
    indexOptionDefaults: { type: 'object' },
    changeStreamPreAndPostImages: { type: 'object' },
    encryptedFields: { type: 'object' },
    flags: { type: 'number' },
    temp: { type: 'bool' },
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
