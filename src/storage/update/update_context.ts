/**
 * The contracts of a compiled update (compile_update.ts): what one application is given
 * (`UpdateContext`) and gives back (`UpdateResult`).
 */
import type { Document } from '../../bson/library.js';

/** The per-call inputs of an update. */
export interface UpdateContext {
  /** The time `$currentDate` and `$$NOW` use. */
  now: Date;
  /** True when the update is building an upsert's new document ($setOnInsert applies). */
  isUpsertInsert: boolean;
  /**
   * The array index the query matched (mongod's elemMatchKey), which the positional `$`
   * resolves to; absent when the query matched no array element.
   */
  matchedField?: string;
}

/** The outcome of applying an update to one document. */
export interface UpdateResult {
  /** The updated document (the input itself when nothing changed). */
  doc: Document;
  /** False when the update changed nothing (same values and same BSON types). */
  modified: boolean;
}

/** A validated update, ready to apply to any number of documents. */
export interface CompiledUpdate {
  readonly kind: 'replacement' | 'operators' | 'pipeline';
  /** Whether a path uses the positional `$` (apply needs `matchedField`). */
  readonly positional: boolean;
  /**
   * The top-level fields an application may change (an operator update's first path
   * components); null when it may change any (a replacement, a pipeline).
   */
  readonly changedFields: readonly string[] | null;
  /** Applies the update; never mutates `doc`; the result keeps `_id`. */
  apply(doc: Document, ctx: UpdateContext): UpdateResult;
}
