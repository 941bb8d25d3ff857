/** What a pipeline runs with (`PipelineContext` of `pipeline.ts`). */
import type { Document } from '../../bson.js';

/** Per-command state a pipeline needs. */
export interface PipelineContext {
  /** `$$NOW` and `$currentDate`-like values. */
  now: Date;
  /** Resolves another collection of the same database (for `$lookup` etc.); may be absent. */
  collection?: (name: string) => Iterable<Document>;
}
