/** `buildInfo`: the version this server presents (MongoDB 8.0 semantics) and its limits. */
import { MAX_BSON_OBJECT_BYTES } from '../../bson/library.js';
import type { CommandDefinition } from '../types.js';
import { MAYFLY_VERSION, MONGODB_VERSION, MONGODB_VERSION_ARRAY } from '../../version.js';
import { cosmosVersionArray } from '../../cosmos/versions.js';

/** The `buildInfo` command. */
export const buildInfo: CommandDefinition = {
  name: 'buildInfo',
  aliases: ['buildinfo'],
  args: 'lenient',
  help: 'get version #, etc.',
  run: (ctx) => ({
    // In cosmos mode, the version of the chosen Cosmos DB server version (src/cosmos/versions.ts).
    version: ctx.server.settings.cosmos?.version.version ?? MONGODB_VERSION,
    gitVersion: 'mayfly',
    modules: [],
    allocator: 'system',
    javascriptEngine: 'none',
    sysInfo: 'deprecated',
    versionArray: ctx.server.settings.cosmos ? cosmosVersionArray(ctx.server.settings.cosmos.version) : [...MONGODB_VERSION_ARRAY],
    openssl: { running: 'disabled', compiled: 'disabled' },
    buildEnvironment: { distmod: '', distarch: process.arch, target_arch: process.arch, target_os: process.platform },
    bits: 64,
    debug: false,
    maxBsonObjectSize: MAX_BSON_OBJECT_BYTES,
    storageEngines: ['inMemory'],
    mayfly: { version: MAYFLY_VERSION, node: process.version },
  }),
};
