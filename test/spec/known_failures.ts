/**
 * Applicable spec tests that Mayfly does not pass yet: `<dir>/<file>` → test description → reason
 * (one line). The suite asserts that each listed test still fails, with a failure that shows its
 * reason, and that each entry names an applicable test, so this list cannot rot: fix the
 * server, then delete the entry.
 */

/** Why a test fails (one line), and what its failure message must show. */
export interface KnownFailureReason {
  readonly why: string;
  readonly shows: RegExp;
}

const reason = (why: string, shows: RegExp): KnownFailureReason => ({ why, shows });

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
const SNAPSHOT_READS = reason(
  'server: readConcern snapshot (versioned reads, atClusterTime) belongs to the transactions slice (WRITE_PATH.md step 3)',
  /expected an error, got|result does not match|atClusterTime|getSnapshotTime/,
);
const RENAME_DROP_TARGET = reason(
  'server: renameCollection drops an existing target before the rename (commands/admin/rename_collection.ts), so the rename event has no operationDescription.dropTarget',
  /operationDescription\.dropTarget: expected the field to exist/,
);

/** Known failures, keyed by spec file then test description. */
export const KNOWN_FAILURES: Readonly<Record<string, Readonly<Record<string, KnownFailureReason>>>> = {
  'change-streams/change-streams-showExpandedEvents.json': {
    "when showExpandedEvents is true, new fields on change stream events are handled appropriately": RENAME_DROP_TARGET,
  },
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
  'sessions/snapshot-sessions-unsupported-ops.json': {
    "Server returns an error on insertOne with snapshot": SNAPSHOT_READS,
    "Server returns an error on insertMany with snapshot": SNAPSHOT_READS,
    "Server returns an error on deleteOne with snapshot": SNAPSHOT_READS,
    "Server returns an error on updateOne with snapshot": SNAPSHOT_READS,
    "Server returns an error on findOneAndUpdate with snapshot": SNAPSHOT_READS,
    "Server returns an error on listIndexes with snapshot": SNAPSHOT_READS,
  },
  'sessions/snapshot-sessions.json': {
    "Find operation with snapshot": SNAPSHOT_READS,
    "Distinct operation with snapshot": SNAPSHOT_READS,
    "Aggregate operation with snapshot": SNAPSHOT_READS,
    "countDocuments operation with snapshot": SNAPSHOT_READS,
    "Mixed operation with snapshot": SNAPSHOT_READS,
    "Write commands with snapshot session do not affect snapshot reads": SNAPSHOT_READS,
    "Find operation with snapshot and snapshot time": SNAPSHOT_READS,
    "Distinct operation with snapshot and snapshot time": SNAPSHOT_READS,
    "Aggregate operation with snapshot and snapshot time": SNAPSHOT_READS,
    "countDocuments operation with snapshot and snapshot time": SNAPSHOT_READS,
    "Mixed operation with snapshot and snapshotTime": SNAPSHOT_READS,
  },
  'crud/create-null-ids.json': {
    "inserting _id with type null via insertOne": DRIVER_NULL_ID,
    "inserting _id with type null via insertMany": DRIVER_NULL_ID,
    "inserting _id with type null via bulkWrite": DRIVER_NULL_ID,
    "inserting _id with type null via clientBulkWrite": DRIVER_NULL_ID,
  },
};
