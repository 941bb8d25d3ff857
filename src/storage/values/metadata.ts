/**
 * Document metadata (mongod's `DocumentMetadataFields`) that a stage attaches to the documents
 * it yields and `{$meta: <name>}` reads back in a later stage: for now `$geoNear`'s distance and
 * point. Kept beside the documents (a WeakMap), never in them, so it is not stored or returned.
 */
import type { Document } from '../../bson/library.js';

/** The metadata fields Mayfly's stages produce. */
export interface DocumentMetadata {
  geoNearDistance?: unknown;
  geoNearPoint?: unknown;
}

const METADATA = new WeakMap<object, DocumentMetadata>();

/** Attaches `meta` to `doc` (merged with what it has). */
export function setMetadata(doc: Document, meta: DocumentMetadata): void {
  METADATA.set(doc, { ...METADATA.get(doc), ...meta });
}

/** The metadata field `name` of `doc`, or undefined. */
export function metadataOf(doc: unknown, name: keyof DocumentMetadata): unknown {
  if (typeof doc !== 'object' || doc === null) return undefined;
  return METADATA.get(doc)?.[name];
}
