/**
 * Rule `requestTimeLimit`: Azure Cosmos DB for MongoDB stops a request that runs longer than 60
 * seconds. The error-codes page ("Troubleshoot common issues in Azure Cosmos DB's API for
 * MongoDB") gives its row: code 50, `ExceededTimeLimit`, "The request has exceeded the timeout of
 * 60 seconds of execution." (mongod 8.2 names code 50 `MaxTimeMSExpired`; the reply carries
 * Cosmos's name, as the 50 of server-side retry does).
 *
 * Each request has its own 60 s: the first batch of a cursor, then each getMore. The commands
 * check it where they check maxTimeMS (`commands/crud/time_limit.ts`), between documents, on the
 * server clock; a client's maxTimeMS under 60 s still answers first, as mongod's 50.
 */
import { CommandError } from '../../errors/command_error.js';

/** How long one request may run. */
export const COSMOS_REQUEST_LIMIT_MS = 60_000;

/** The error-codes page's description of code 50. */
export const REQUEST_TIMEOUT_MESSAGE = 'The request has exceeded the timeout of 60 seconds of execution.';

/** The error of a request that ran past 60 s: 50 ExceededTimeLimit. */
export function cosmosRequestTimedOut(): CommandError {
  return new CosmosRequestTimeout();
}

/**
 * The class of that error: it is Cosmos's answer to the request, not an error of mongod's query
 * executor, so it carries no executor prefix (`PlanExecutor error during aggregation :: ...`).
 */
export class CosmosRequestTimeout extends CommandError {
  constructor() {
    super('MaxTimeMSExpired', REQUEST_TIMEOUT_MESSAGE, { codeName: 'ExceededTimeLimit' });
  }
}
