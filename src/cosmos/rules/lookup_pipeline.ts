/**
 * Rule `lookupPipeline`: Azure Cosmos DB for MongoDB (RU) runs `$lookup` with localField and
 * foreignField; a `$lookup` with `let` or `pipeline` (correlated or uncorrelated subqueries) is
 * refused (the rule). No page gives the error text: Mayfly answers 115
 * CommandNotSupported naming the field.
 */
import { CommandError } from '../../errors/command_error.js';
import { forEachStage } from './_pipeline_walk.js';

/** Throws 115 for the first `$lookup` of `pipeline` (nested ones included) with `let` or `pipeline`. */
export function cosmosCheckLookup(pipeline: unknown): void {
  forEachStage(pipeline, (name, spec) => {
    if (name !== '$lookup' || spec === null || typeof spec !== 'object') return;
    for (const field of ['let', 'pipeline']) {
      if (field in (spec as object)) throw new CommandError('CommandNotSupported', `$lookup with '${field}' is not supported.`);
    }
  });
}
