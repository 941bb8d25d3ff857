/**
 * Applicable spec tests that Mayfly does not pass yet: `<dir>/<file>` → test description → reason
 * (one line). The suite asserts that each listed test still fails, with a failure that shows its
 * reason, and that each entry names an applicable test, so this list cannot rot: fix the
 * server, then delete the entry.
 */
import type { DriverDeviation } from './unified_runner.js';

/**
 * Why a test fails (one line), and what its failure message must show. `kind` says whose fault
 * it is: the server's (Mayfly does not do what mongod does yet), the driver's (the Node.js
 * driver deviates from its specification) or the topology's (a one-node replica set, mongod's
 * too, cannot do what the test needs, e.g. a secondary to select). A driver deviation that the runner can neutralise
 * exactly names it in `neutralise` (unified_runner.ts `DRIVER_DEVIATIONS`): the suite then also
 * reruns the test with it neutralised, and that run must pass, so the deviation is shown to be
 * the only cause and the test counts as "driver deviation (verified to pass otherwise)".
 */
export interface KnownFailureReason {
  readonly why: string;
  readonly shows: RegExp;
  readonly kind: 'server' | 'driver' | 'topology';
  readonly neutralise?: DriverDeviation;
}

/** A reason whose `why` says whose fault it is ('driver: …', 'topology: …' (what a one-node replica set cannot do, mongod's alike) or 'server…'). */
const reason = (why: string, shows: RegExp): KnownFailureReason => ({
  why,
  shows,
  kind: why.startsWith('driver:') ? 'driver' : why.startsWith('topology:') ? 'topology' : 'server',
});

/** A driver deviation that a rerun with `neutralise` must pass. */
const driverDeviation = (why: string, shows: RegExp, neutralise: DriverDeviation): KnownFailureReason => ({ why, shows, kind: 'driver', neutralise });

// The reasons, grouped here so that the report can count them.
const DRIVER_BYPASS_FALSE = reason(
  'driver: the Node.js driver 7.9 omits bypassDocumentValidation: false from the command it sends',
  /command\.bypassDocumentValidation: expected false, the field is missing/,
);
const DRIVER_NULL_ID = reason(
  'driver: the Node.js driver 7.9 replaces a null _id with an ObjectId before sending (the server keeps null)',
  /countDocuments on collection: result does not match: <root>: expected 1, got 0/,
);
const DRIVER_PARTIAL_RESULT = reason(
  'driver: the Node.js driver 7.9 sets partialResult even when no write succeeded',
  /expectError\.expectResult\.\w+: expected no field, got 0/,
);

const DRIVER_NETWORK_INSERTED_IDS = reason(
  'driver: the Node.js driver 7.9 reports the insertedIds of a bulk write batch that failed with a network error',
  /expectError\.expectResult\.insertedIds: unexpected field\(s\) 0/,
);
// The transactions slice (WRITE_PATH.md step 3): what its spec runs do not pass yet.
const TXN_DRIVER_WTIMEOUT = driverDeviation(
  'driver: the Node.js driver 7.9 sends wtimeout: 10000 with w: majority on commitTransaction/abortTransaction, which the tests do not expect',
  /unexpected field\(s\) wtimeout/,
  'commitAbortWtimeout',
);
const TXN_ONE_NODE_SECONDARY = reason(
  'topology: a client whose readPreference is secondary cannot connect to a one-node replica set (the driver\'s connect() selects a server by that readPreference, and the only member is the primary): mongod on one node answers the same',
  /MongoServerSelectionError: Server selection timed out/,
);
const TXN_DRIVER_BULK_WRITE_CONCERN = reason(
  'driver: the Node.js driver 7.9 drops the writeConcern of a clientBulkWrite inside a transaction instead of refusing it client-side ("Cannot set write concern after starting a transaction")',
  /operation clientBulkWrite on client0: expected an error, got \{"acknowledged":true/,
);

/** Known failures, keyed by spec file then test description. */
export const KNOWN_FAILURES: Readonly<Record<string, Readonly<Record<string, KnownFailureReason>>>> = {
  'crud/bypassDocumentValidation.json': {
    "Aggregate with $out passes bypassDocumentValidation: false": DRIVER_BYPASS_FALSE,
    "BulkWrite passes bypassDocumentValidation: false": DRIVER_BYPASS_FALSE,
    "FindOneAndReplace passes bypassDocumentValidation: false": DRIVER_BYPASS_FALSE,
    "FindOneAndUpdate passes bypassDocumentValidation: false": DRIVER_BYPASS_FALSE,
    "InsertMany passes bypassDocumentValidation: false": DRIVER_BYPASS_FALSE,
  },
  'crud/client-bulkWrite-partialResults.json': {
    "partialResult is unset when first operation fails during an ordered bulk write (verbose)": DRIVER_PARTIAL_RESULT,
    "partialResult is unset when first operation fails during an ordered bulk write (summary)": DRIVER_PARTIAL_RESULT,
    "partialResult is unset when all operations fail during an unordered bulk write": DRIVER_PARTIAL_RESULT,
  },
  'retryable-writes/bulkWrite.json': {
    "First insertOne is never committed": DRIVER_NETWORK_INSERTED_IDS,
  },
  'crud/create-null-ids.json': {
    "inserting _id with type null via insertOne": DRIVER_NULL_ID,
    "inserting _id with type null via insertMany": DRIVER_NULL_ID,
    "inserting _id with type null via bulkWrite": DRIVER_NULL_ID,
    "inserting _id with type null via clientBulkWrite": DRIVER_NULL_ID,
  },
  'transactions-convenient-api/transaction-options.json': {
    "withTransaction inherits transaction options from client": TXN_DRIVER_WTIMEOUT,
    "withTransaction inherits transaction options from defaultTransactionOptions": TXN_DRIVER_WTIMEOUT,
    "withTransaction explicit transaction options": TXN_DRIVER_WTIMEOUT,
    "withTransaction explicit transaction options override defaultTransactionOptions": TXN_DRIVER_WTIMEOUT,
    "withTransaction explicit transaction options override client options": TXN_DRIVER_WTIMEOUT,
  },
  'transactions/client-bulkWrite.json': {
    "client writeConcern ignored for client bulkWrite in transaction": TXN_DRIVER_WTIMEOUT,
    "client bulkWrite with writeConcern in a transaction causes a transaction error": TXN_DRIVER_BULK_WRITE_CONCERN,
  },
  'transactions/delete.json': {
    "collection writeConcern ignored for delete": TXN_DRIVER_WTIMEOUT,
  },
  'transactions/error-labels-errorLabels.json': {
    "add RetryableWriteError and UnknownTransactionCommitResult labels to writeConcernError ShutdownInProgress": TXN_DRIVER_WTIMEOUT,
  },
  'transactions/error-labels.json': {
    "add UnknownTransactionCommitResult label to writeConcernError WriteConcernTimeout": TXN_DRIVER_WTIMEOUT,
    "add UnknownTransactionCommitResult label to writeConcernError WriteConcernTimeout with wtimeout": TXN_DRIVER_WTIMEOUT,
    "omit UnknownTransactionCommitResult label from writeConcernError UnsatisfiableWriteConcern": TXN_DRIVER_WTIMEOUT,
    "omit UnknownTransactionCommitResult label from writeConcernError UnknownReplWriteConcern": TXN_DRIVER_WTIMEOUT,
    "add UnknownTransactionCommitResult label to MaxTimeMSExpired": TXN_DRIVER_WTIMEOUT,
    "add UnknownTransactionCommitResult label to writeConcernError MaxTimeMSExpired": TXN_DRIVER_WTIMEOUT,
  },
  'transactions/findOneAndDelete.json': {
    "collection writeConcern ignored for findOneAndDelete": TXN_DRIVER_WTIMEOUT,
  },
  'transactions/findOneAndReplace.json': {
    "collection writeConcern ignored for findOneAndReplace": TXN_DRIVER_WTIMEOUT,
  },
  'transactions/findOneAndUpdate.json': {
    "collection writeConcern ignored for findOneAndUpdate": TXN_DRIVER_WTIMEOUT,
  },
  'transactions/insert.json': {
    "collection writeConcern ignored for insert": TXN_DRIVER_WTIMEOUT,
  },
  'transactions/retryable-abort.json': {
    "abortTransaction does not retry after WriteConcernError Interrupted": TXN_DRIVER_WTIMEOUT,
  },
  'transactions/retryable-abort-errorLabels.json': {
    "abortTransaction succeeds after WriteConcernError InterruptedAtShutdown": TXN_DRIVER_WTIMEOUT,
    "abortTransaction succeeds after WriteConcernError InterruptedDueToReplStateChange": TXN_DRIVER_WTIMEOUT,
    "abortTransaction succeeds after WriteConcernError PrimarySteppedDown": TXN_DRIVER_WTIMEOUT,
    "abortTransaction succeeds after WriteConcernError ShutdownInProgress": TXN_DRIVER_WTIMEOUT,
  },
  'transactions/retryable-commit-errorLabels.json': {
    "commitTransaction succeeds after WriteConcernError InterruptedAtShutdown": TXN_DRIVER_WTIMEOUT,
    "commitTransaction succeeds after WriteConcernError InterruptedDueToReplStateChange": TXN_DRIVER_WTIMEOUT,
    "commitTransaction succeeds after WriteConcernError PrimarySteppedDown": TXN_DRIVER_WTIMEOUT,
    "commitTransaction succeeds after WriteConcernError ShutdownInProgress": TXN_DRIVER_WTIMEOUT,
  },
  'transactions/retryable-commit.json': {
    "commitTransaction is not retried after UnsatisfiableWriteConcern error": TXN_DRIVER_WTIMEOUT,
  },
  'transactions/run-command.json': {
    "run command with secondary read preference in client option and primary read preference in transaction options": TXN_ONE_NODE_SECONDARY,
  },
  'transactions/transaction-options.json': {
    "transaction options inherited from client": TXN_DRIVER_WTIMEOUT,
    "transaction options inherited from defaultTransactionOptions": TXN_DRIVER_WTIMEOUT,
    "startTransaction options override defaults": TXN_DRIVER_WTIMEOUT,
    "defaultTransactionOptions override client options": TXN_DRIVER_WTIMEOUT,
    "readConcern local in defaultTransactionOptions": TXN_DRIVER_WTIMEOUT,
    "client writeConcern ignored for bulk": TXN_DRIVER_WTIMEOUT,
    "readPreference inherited from client": TXN_ONE_NODE_SECONDARY,
  },
  'transactions/update.json': {
    "collections writeConcern ignored for update": TXN_DRIVER_WTIMEOUT,
  },
  'transactions/write-concern.json': {
    "commit with majority": TXN_DRIVER_WTIMEOUT,
    "abort with majority": TXN_DRIVER_WTIMEOUT,
  },
};
