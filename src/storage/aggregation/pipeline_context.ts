/** What a pipeline runs with (`PipelineContext` of `pipeline.ts`). */
import type { Document } from '../../bson/library.js';
import type { LetVariables } from '../query/compile_query.js';
import type { Collator } from '../values/collator.js';
import { ROOT_PARSE_STATE, type EvalContext, type ParseState } from './expression_core.js';

/** Per-command state a pipeline needs. */
export interface PipelineContext {
  /** `$$NOW` and `$currentDate`-like values. */
  now: Date;
  /** Resolves another collection of the same database (for `$lookup` etc.); may be absent. */
  collection?: (name: string) => Iterable<Document>;
  /**
   * The command's `let` variables (already evaluated, `evaluateLet`): every stage's expressions
   * may read them as `$$name`; an undefined name is 17276 when the stage is parsed.
   */
  variables?: LetVariables;
  /**
   * The command's collation (absent or null: simple): `$match`, `$sort`, `$group` keys, the
   * comparison expressions and `$min`/`$max`/`$addToSet` compare strings by it.
   */
  collator?: Collator | null;
}

/** The parse state of a pipeline's expressions: its `let` variables are defined. */
export function parseStateOf(ctx: PipelineContext): ParseState {
  return ctx.variables ? { userVars: ctx.variables.names } : ROOT_PARSE_STATE;
}

/** What an expression of the pipeline evaluates against for one document (`$$ROOT`). */
export function evalContextOf(ctx: PipelineContext, root: Document): EvalContext {
  return { root, now: ctx.now, vars: ctx.variables?.values, collator: ctx.collator };
}
