/**
 * The Cosmos DB rules, one line each: the switch name (`rules: { <name>: false }`,
 * `--cosmos-rule-off <name>`), what Azure Cosmos DB for MongoDB does, and the file under
 * `src/cosmos/rules/` that does it. Every rule is on in `--compat cosmos` unless switched off,
 * and none applies in `--compat mongodb`.
 */

/** Every rule, with what Cosmos DB does. */
export const RULES = {
  // Change streams (src/cosmos/change_streams/).
  changeStreamEvents: 'a change stream shows inserts, updates and replacements of documents still there, as they are now (no deletes, so no TTL expiry), without operationType or updateDescription',
  changeStreamNamespaceNotFound: 'a change stream on a missing collection, or whose collection is dropped or renamed, answers 26 NamespaceNotFound (no invalidate event)',
  changeStreamOptions: "a change stream refuses showExpandedEvents and fullDocumentBeforeChange (115), and startAtOperationTime with the all versions and deletes feed",
  changeStreamPipeline: "a change stream needs a $match and then a $project, and fullDocument: 'updateLookup' (2 BadValue)",
  changeStreamScope: 'only a collection can be watched: a database or whole-account stream answers 2 BadValue',
  changeStreamThrottledPage: 'a throttled getMore of a change stream answers an empty page, not 16500',
  // Other rules (src/cosmos/rules/).
  documentSizeLimit: 'a document over 2 MB (16 MB with EnableMongo16MBDocumentSupport) is refused',
  ignoreWriteConcern: 'writeConcern is accepted and ignored (no wtimeout, no w > 1 error)',
  indexKinds: 'text, 2d and hashed indexes, sparse, collation, partial (unless unique) and compound or projected wildcard indexes are refused',
  indexPathDepth: 'an index path deeper than 6 levels is refused',
  lookupPipeline: "$lookup with 'let' or 'pipeline' is refused",
  queryOperators: "the query operators the version's page marks unsupported ($where, $text, $jsonSchema, $bits*, legacy geo shapes) are refused in every filter",
  replyTypes: "replies carry Cosmos's '_t' type name first (CreateIndexesResponse, DropIndexesResponse, OKMongoResponse for create)",
  sortNeedsIndex: 'a sort on a field no index covers is refused (2 BadValue)',
  transactionLimits: "a transaction is limited to one collection and 5 seconds (2 \"Transaction isn't active\")",
  uniqueIndexOnEmpty: 'a unique index is refused on a collection that holds documents (67)',
  unsupportedCommands: 'a command the version does not support answers 115 CommandNotSupported',
  unsupportedStages: "a stage the version does not support answers 40324 Unrecognized pipeline stage name",
  // The request limit and the operator tables of the feature-support pages.
  indexCompoundFields: 'a compound index of more than 8 fields is refused (67)',
  expressionOperators: "the aggregation and projection operators the version's page marks unsupported ($meta) are refused",
  requestTimeLimit: 'a request (a first batch, each getMore, a count or distinct) that runs past 60 s answers 50 ExceededTimeLimit',
} as const;

/** The name of a rule. */
export type RuleName = keyof typeof RULES;

/** The rule names, sorted. */
export const RULE_NAMES: readonly RuleName[] = (Object.keys(RULES) as RuleName[]).sort();

/** True when `name` is a rule. */
export function isRuleName(name: unknown): name is RuleName {
  return typeof name === 'string' && Object.hasOwn(RULES, name);
}
