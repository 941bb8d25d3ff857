/**
 * The operator call site of the Cosmos DB rules: dispatch hands every command here once its
 * arguments are valid, and each operator rule that is on walks the command's filters, pipelines
 * and projections (`rules/_command_filters.ts`).
 */
import type { Document } from '../bson/library.js';
import type { CosmosSettings } from './settings.js';
import { cosmosCheckCommandExpressions } from './rules/expression_operators.js';
import { cosmosCheckCommandFilters } from './rules/query_operators.js';

/** Throws the first Cosmos DB refusal of an operator in the command `name` with `body`. */
export function cosmosCheckOperators(name: string, body: Document, cosmos: CosmosSettings): void {
  if (cosmos.rules.queryOperators) cosmosCheckCommandFilters(name, body, cosmos.version);
  if (cosmos.rules.expressionOperators) cosmosCheckCommandExpressions(name, body, cosmos.version);
}
