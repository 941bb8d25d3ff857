/**
 * The stages of a pipeline and of the pipelines inside it (`$facet`'s, `$lookup`'s and
 * `$unionWith`'s), for the rules that look at stages (unsupported_stages.ts, lookup_pipeline.ts).
 * Malformed stages are skipped: the pipeline parser answers them with mongod's errors.
 */
import type { Document } from '../../bson/library.js';

function isDoc(value: unknown): value is Document {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Calls `visit(name, spec)` for every stage of `pipeline` and of the pipelines nested in it. */
export function forEachStage(pipeline: unknown, visit: (name: string, spec: unknown) => void): void {
  if (!Array.isArray(pipeline)) return;
  for (const stage of pipeline) {
    if (!isDoc(stage)) continue;
    const names = Object.keys(stage);
    if (names.length !== 1) continue;
    const name = names[0]!;
    const spec = stage[name];
    visit(name, spec);
    if (name === '$facet' && isDoc(spec)) for (const sub of Object.values(spec)) forEachStage(sub, visit);
    if ((name === '$lookup' || name === '$unionWith') && isDoc(spec)) forEachStage(spec.pipeline, visit);
  }
}
