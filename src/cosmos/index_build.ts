/**
 * The index-build call site of the Cosmos DB rules: createIndexes hands the specs it is about to
 * build here, once, and each rule that is on checks them.
 */
import type { Document } from '../bson/library.js';
import type { CosmosSettings } from './settings.js';
import { cosmosCheckCompoundIndexFields } from './rules/index_compound_fields.js';
import { cosmosCheckIndexKind } from './rules/index_kinds.js';
import { cosmosCheckIndexPathDepth } from './rules/index_path_depth.js';
import { cosmosCheckUniqueIndexes, type UniqueIndexTarget } from './rules/unique_index_on_empty.js';

/** Throws the first Cosmos DB refusal of `specs` (the new indexes) on `target`. */
export function cosmosCheckIndexBuild(specs: readonly Document[], target: UniqueIndexTarget, cosmos: CosmosSettings): void {
  if (cosmos.rules.indexKinds) for (const spec of specs) cosmosCheckIndexKind(spec);
  if (cosmos.rules.indexPathDepth) for (const spec of specs) cosmosCheckIndexPathDepth(spec);
  if (cosmos.rules.indexCompoundFields) for (const spec of specs) cosmosCheckCompoundIndexFields(spec);
  if (cosmos.rules.uniqueIndexOnEmpty) cosmosCheckUniqueIndexes(specs, target, cosmos.capabilities);
}
