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
