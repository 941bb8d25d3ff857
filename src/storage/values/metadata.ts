/**
 * The metadata of documents in a pipeline (mongod's `DocumentMetadataFields`), the parts Mayfly's
 * stages produce: `$geoNear`'s distance and point, the `score` and `scoreDetails` of `$rankFusion`
 * and `$scoreFusion`. Metadata travels beside a document, never in it (so it is neither stored nor
 * returned): a side table keyed by the document object, so a stage that passes documents on
 * unchanged (`$match`, `$sort`, `$limit`) keeps it and `{$meta: ...}` reads it from `$$ROOT`. A
 * stage that sets it gives it a document of its own (a copy), never a stored one.
 */

/** What a document may carry. */
export interface DocumentMetadata {
  /** `{$meta: "geoNearDistance"}`. */
  readonly geoNearDistance?: unknown;
  /** `{$meta: "geoNearPoint"}`. */
  readonly geoNearPoint?: unknown;
  /** `{$meta: "textScore"}`: a `$text` match's score. */
  readonly textScore?: number;
  /** `{$meta: "score"}`. */
  readonly score?: unknown;
  /** `{$meta: "scoreDetails"}`. */
  readonly scoreDetails?: unknown;
}

const table = new WeakMap<object, DocumentMetadata>();

/** Sets `doc`'s metadata fields of `metadata` (the others it had are kept). */
export function setMetadata(doc: object, metadata: DocumentMetadata): void {
  const had = table.get(doc);
  table.set(doc, had === undefined ? metadata : { ...had, ...metadata });
}

/**
 * `out`, the document a stage made of `doc` (`$project`, `$addFields`), given `doc`'s metadata:
 * metadata travels with a document through the stages that reshape it, as mongod's does.
 */
export function withMetadataOf<T extends object>(doc: object, out: T): T {
  if (out !== doc) {
    const had = table.get(doc);
    if (had !== undefined) table.set(out, had);
  }
  return out;
}

/** The metadata of `doc`, if it has any. */
export function metadataOf(doc: unknown): DocumentMetadata | undefined {
  return typeof doc === 'object' && doc !== null ? table.get(doc) : undefined;
}
