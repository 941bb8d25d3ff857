/**
 * The server versions an Azure Cosmos DB for MongoDB (RU) account can run, one table per version
 * of what Microsoft's "feature support" page of that version lists as supported: the version
 * `buildInfo` reports, the wire version `hello` reports, the aggregation stages, the commands, and
 * the query and expression operators the page marks unsupported. What is not supported of stages
 * and commands is derived (the catalogues of mongod's stages and commands minus these lists),
 * never listed; of operators, the page's "No" rows are listed and every other operator mongod
 * knows is supported. Every page marks every update operator supported (`$pushAll` included), and
 * the index kinds and options it marks unsupported (text, 2d, hashed; sparse, case-insensitive,
 * partial unless unique) are the same at every version: `rules/index_kinds.ts`.
 *
 * Pages: learn.microsoft.com/azure/cosmos-db/mongodb/feature-support-42 (-50, -60, -70).
 */

/** The server versions, oldest first. */
export const COSMOS_SERVER_VERSIONS = ['4.2', '5.0', '6.0', '7.0'] as const;
/** One of `COSMOS_SERVER_VERSIONS`. */
export type CosmosServerVersion = (typeof COSMOS_SERVER_VERSIONS)[number];
/** The version an account gets when none is chosen. */
export const DEFAULT_COSMOS_SERVER_VERSION: CosmosServerVersion = '7.0';

/** What one server version supports. */
export interface CosmosVersionFacts {
  /** `buildInfo.version` (and `versionArray`). */
  readonly version: string;
  /** `hello.maxWireVersion` (mongod's wire version of that release). */
  readonly maxWireVersion: number;
  /** The aggregation stages the page marks supported. */
  readonly stages: ReadonlySet<string>;
  /** The database commands the page marks supported. */
  readonly commands: ReadonlySet<string>;
  /** The query operators the page marks unsupported (the page lists the others as supported). */
  readonly refusedQueryOperators: ReadonlySet<string>;
  /** The aggregation-expression and projection operators the page marks unsupported. */
  readonly refusedExpressionOperators: ReadonlySet<string>;
}

/** The stages of the 4.2 page. */
const STAGES_42 = [
  '$addFields', '$changeStream', '$count', '$facet', '$geoNear', '$group', '$limit', '$lookup', '$match', '$merge', '$out', '$project',
  '$redact', '$replaceRoot', '$replaceWith', '$sample', '$set', '$skip', '$sort', '$sortByCount', '$unset', '$unwind',
];
/** Added by the 5.0 page. */
const STAGES_50 = [...STAGES_42, '$setWindowFields', '$unionWith'];
/** Added by the 6.0 page. */
const STAGES_60 = [...STAGES_50, '$densify', '$documents', '$fill'];
/** The 7.0 page: as 6.0. */
const STAGES_70 = [...STAGES_60];

/**
 * The commands of the 4.2 page (query and write, transactions, sessions, administration, diagnostics, users).
 * The page marks `mapReduce`, `renameCollection`, `killOp`, `connectionStatus` and `listCommands`
 * "No": they are not here. It marks `collMod` and `serverStatus` "No" too; they stay, for the
 * container TTL (`collMod` on the `_ts` index) and the TTL and request-unit counters
 * (`serverStatus`): docs/cosmos.md, "Decisions".
 */
const COMMANDS_42 = [
  // query and write
  'aggregate', 'count', 'delete', 'distinct', 'find', 'findAndModify', 'getMore', 'insert', 'update',
  // transactions and sessions
  'abortTransaction', 'commitTransaction', 'endSessions', 'killSessions', 'refreshSessions', 'startSession',
  // authentication and users
  'authenticate', 'createUser', 'dropUser', 'logout', 'saslContinue', 'saslStart', 'updateUser', 'usersInfo',
  // administration
  'collMod', 'create', 'createIndexes', 'currentOp', 'drop', 'dropDatabase', 'dropIndexes', 'killCursors', 'listCollections',
  'listDatabases', 'listIndexes', 'reIndex',
  // diagnostics and handshake
  'buildInfo', 'collStats', 'dbStats', 'explain', 'getCmdLineOpts', 'getParameter', 'hello', 'hostInfo', 'isMaster',
  'ping', 'serverStatus', 'whatsmyuri',
];
/** The 5.0 page: as 4.2. */
const COMMANDS_50 = [...COMMANDS_42];
/** The 6.0 page. */
const COMMANDS_60 = [...COMMANDS_50];
/** The 7.0 page adds role management. */
const COMMANDS_70 = [...COMMANDS_60, 'createRole', 'dropRole', 'grantRolesToUser', 'revokeRolesFromUser', 'rolesInfo', 'updateRole'];

/** Cosmos DB's own commands, at every version (`getLastRequestStatistics`: the request charge of the last request). */
export const COSMOS_OWN_COMMANDS = ['getLastRequestStatistics'];

/**
 * The query operators the 4.2 page marks "No": evaluation ($jsonSchema, $text, $where), the
 * bitwise query operators (listed under "Bitwise update operator"), and the legacy geo shapes.
 */
const REFUSED_QUERY_OPERATORS_42 = ['$bitsAllClear', '$bitsAllSet', '$bitsAnyClear', '$bitsAnySet', '$box', '$center', '$centerSphere', '$jsonSchema', '$polygon', '$text', '$where'];
/** The 5.0, 6.0 and 7.0 pages mark the same ones. */
const REFUSED_QUERY_OPERATORS_50 = [...REFUSED_QUERY_OPERATORS_42];
const REFUSED_QUERY_OPERATORS_60 = [...REFUSED_QUERY_OPERATORS_50];
const REFUSED_QUERY_OPERATORS_70 = [...REFUSED_QUERY_OPERATORS_60];

/** The expression and projection operators every page marks "No": `$meta` ("Text search operator", "Projection operators"). */
const REFUSED_EXPRESSION_OPERATORS_42 = ['$meta'];
const REFUSED_EXPRESSION_OPERATORS_50 = [...REFUSED_EXPRESSION_OPERATORS_42];
const REFUSED_EXPRESSION_OPERATORS_60 = [...REFUSED_EXPRESSION_OPERATORS_50];
const REFUSED_EXPRESSION_OPERATORS_70 = [...REFUSED_EXPRESSION_OPERATORS_60];

interface VersionLists {
  readonly stages: readonly string[];
  readonly commands: readonly string[];
  readonly refusedQueryOperators: readonly string[];
  readonly refusedExpressionOperators: readonly string[];
}

function facts(version: string, maxWireVersion: number, lists: VersionLists): CosmosVersionFacts {
  return {
    version,
    maxWireVersion,
    stages: new Set(lists.stages),
    commands: new Set([...lists.commands, ...COSMOS_OWN_COMMANDS]),
    refusedQueryOperators: new Set(lists.refusedQueryOperators),
    refusedExpressionOperators: new Set(lists.refusedExpressionOperators),
  };
}

/** The table: what each server version supports. */
export const COSMOS_VERSIONS: Readonly<Record<CosmosServerVersion, CosmosVersionFacts>> = {
  '4.2': facts('4.2.0', 8, { stages: STAGES_42, commands: COMMANDS_42, refusedQueryOperators: REFUSED_QUERY_OPERATORS_42, refusedExpressionOperators: REFUSED_EXPRESSION_OPERATORS_42 }),
  '5.0': facts('5.0.0', 13, { stages: STAGES_50, commands: COMMANDS_50, refusedQueryOperators: REFUSED_QUERY_OPERATORS_50, refusedExpressionOperators: REFUSED_EXPRESSION_OPERATORS_50 }),
  '6.0': facts('6.0.0', 17, { stages: STAGES_60, commands: COMMANDS_60, refusedQueryOperators: REFUSED_QUERY_OPERATORS_60, refusedExpressionOperators: REFUSED_EXPRESSION_OPERATORS_60 }),
  '7.0': facts('7.0.0', 21, { stages: STAGES_70, commands: COMMANDS_70, refusedQueryOperators: REFUSED_QUERY_OPERATORS_70, refusedExpressionOperators: REFUSED_EXPRESSION_OPERATORS_70 }),
};

/** True when `value` is one of the server versions. */
export function isCosmosServerVersion(value: unknown): value is CosmosServerVersion {
  return typeof value === 'string' && (COSMOS_SERVER_VERSIONS as readonly string[]).includes(value);
}

/** `buildInfo.versionArray` for `facts` ('7.0.0' → [Int32 7, 0, 0, 0] as plain numbers). */
export function cosmosVersionArray(facts: CosmosVersionFacts): number[] {
  const parts = facts.version.split('.').map(Number);
  while (parts.length < 4) parts.push(0);
  return parts;
}
