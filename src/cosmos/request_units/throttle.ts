/**
 * What a throttled request answers in Cosmos DB mode: the 16500 reply of Azure Cosmos DB for
 * MongoDB (its text as Cosmos sends it: the 429 of the underlying service, substatus 3200,
 * the activity id and the reason), and the 50 of a request that server-side retry gave up on
 * after 60 s (Microsoft's "Prevent rate-limiting errors" page).
 */
import { CommandError } from '../../errors/command_error.js';

/** How long server-side retry keeps a throttled request waiting before it answers 50. */
export const SERVER_SIDE_RETRY_LIMIT_MS = 60_000;

/** The reason Cosmos gives for a 429 (carriage returns and all, as its replies carry it). */
const REASON =
  '(\r\nErrors : [\r\n  "Request rate is large. More Request Units may be needed, so no changes were made. ' +
  'Please retry this request later. Learn more: http://aka.ms/cosmosdb-error-429"\r\n]\r\n);';

/** The errmsg of a 16500: `Error=16500, RetryAfterMs=<n>, Details='...'`. */
export function throttleMessage(retryAfterMs: number, activityId: string): string {
  return (
    `Error=16500, RetryAfterMs=${retryAfterMs}, Details='Response status code does not indicate success: ` +
    `TooManyRequests (429); Substatus: 3200; ActivityId: ${activityId}; Reason: ${REASON}`
  );
}

/** The command error of a throttled request (16500 RequestRateTooLarge). */
export function throttleError(retryAfterMs: number, activityId: string): CommandError {
  return new CommandError('RequestRateTooLarge', throttleMessage(retryAfterMs, activityId));
}

/**
 * The error of a request server-side retry waited 60 s for: code 50, which Cosmos names
 * `ExceededTimeLimit` (mongod 8.2 names code 50 `MaxTimeMSExpired`; the reply carries Cosmos's name).
 */
export function retryTimeLimitError(waitedMs: number): CommandError {
  return new CommandError(
    'MaxTimeMSExpired',
    `Request timed out: server-side retry waited ${waitedMs} ms for request units (rate limited, 16500) and gave up; the request was not run.`,
    { codeName: 'ExceededTimeLimit' },
  );
}
