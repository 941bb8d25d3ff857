/**
 * `$replaceRoot` and `$replaceWith` (document_source_replace_root.cpp): the document becomes the
 * value of an expression, which must be an object (40228 otherwise, with the input document).
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import type { Evaluator } from '../../expression/types.js';
import { docValueToString } from '../../values/format.js';
import { isDocument } from '../../values/paths.js';
import { typeName } from '../../expression/value.js';
import type { PipelineContext } from '../pipeline_context.js';
import type { Stage, StageParser } from './types.js';

function replaceStage(newRoot: Evaluator, context: string, ctx: PipelineContext): Stage {
  return function* replaceRoot(input) {
    for (const doc of input) {
      const v = newRoot(ctx.expressions.frame(doc));
      if (!isDocument(v)) {
        throw new CommandError(
          40228,
          `${context} must evaluate to an object, but resulting value was: ${docValueToString(v)}. Type of resulting value: '${typeName(v)}'. Input document: ${docValueToString(doc)}`,
        );
      }
      yield v as Document;
    }
  };
}

/** Parses `{$replaceRoot: {newRoot: <expr>}}`. */
export const parseReplaceRoot: StageParser = (spec, ctx) => {
  if (!isDocument(spec)) {
    throw new CommandError(40229, `expected an object as specification for $replaceRoot stage, got ${bsonTypeOf(spec)}`);
  }
  let newRoot: Evaluator | undefined;
  for (const key of Object.keys(spec)) {
    if (key !== 'newRoot') throw new CommandError(40415, `BSON field '$replaceRoot.${key}' is an unknown field.`);
    newRoot = ctx.expressions.parse(spec.newRoot);
  }
  if (newRoot === undefined) {
    throw new CommandError(40414, "BSON field '$replaceRoot.newRoot' is missing but a required field");
  }
  return replaceStage(newRoot, "'newRoot' expression ", ctx);
};

/** Parses `{$replaceWith: <expr>}`. */
export const parseReplaceWith: StageParser = (spec, ctx) =>
  replaceStage(ctx.expressions.parse(spec), "'replacement document'", ctx);
