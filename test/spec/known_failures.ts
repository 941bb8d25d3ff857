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
  'crud/create-null-ids.json': {
    "inserting _id with type null via insertOne": DRIVER_NULL_ID,
    "inserting _id with type null via insertMany": DRIVER_NULL_ID,
    "inserting _id with type null via bulkWrite": DRIVER_NULL_ID,
    "inserting _id with type null via clientBulkWrite": DRIVER_NULL_ID,
  },
};
