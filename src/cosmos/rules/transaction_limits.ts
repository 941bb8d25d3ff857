/**
 * Rule `transactionLimits`: a multi-document transaction on Azure Cosmos DB for MongoDB works on
 * one non-sharded collection and lives at most 5 seconds; past that, the error-codes page's
 * answer: 2 "Transaction isn't active" ("The multi-document transaction surpassed the fixed
 * 5-second time limit"). A write conflict between transactions is 112 WriteConflict (as mongod).
 *
 * The transaction code calls `cosmosCheckTransactionStatement` before each statement of a
 * transaction, with what it keeps of the transaction (when it started, the namespaces it touched).
 */
import { CommandError } from '../../errors/command_error.js';

/** The fixed lifetime of a transaction. */
export const COSMOS_TRANSACTION_MS = 5_000;
/** The error-codes page's text. */
export const TRANSACTION_NOT_ACTIVE_MESSAGE = "Transaction isn't active";

/** What the rule needs of a transaction. */
export interface CosmosTransactionState {
  /** The server clock when the transaction's first statement ran. */
  readonly startedAtMs: number;
  /** The namespaces (`db.coll`) its statements touched so far. */
  readonly namespaces: ReadonlySet<string>;
}

/**
 * Throws 2 BadValue "Transaction isn't active" when the transaction is older than 5 s at `nowMs`,
 * or when `ns` is a second collection (Cosmos DB: one collection per transaction).
 */
export function cosmosCheckTransactionStatement(state: CosmosTransactionState, ns: string, nowMs: number): void {
  if (nowMs - state.startedAtMs > COSMOS_TRANSACTION_MS) throw new CommandError('BadValue', TRANSACTION_NOT_ACTIVE_MESSAGE);
  if (state.namespaces.size > 0 && !state.namespaces.has(ns)) {
    throw new CommandError('BadValue', `${TRANSACTION_NOT_ACTIVE_MESSAGE}: a transaction on Azure Cosmos DB works on one collection; it already touched ${[...state.namespaces][0]}, not ${ns}`);
  }
}
