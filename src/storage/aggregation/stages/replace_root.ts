/**
 * `$replaceRoot` (document_source_replace_root.cpp): the document becomes the value of the
 * `newRoot` expression, which must be an object (40228 otherwise, with the input document).
 */
import { CommandError } from '../../../errors/command_error.js';
import type { Evaluator } from '../../expression/types.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { isDocument } from '../../values/paths.js';
import { TRANSFORM, type StageDefinition } from '../stage.js';
import { replaceRootStage } from './_internal.js';

/** `{$replaceRoot: {newRoot: <expression>}}`. */
export const replaceRoot: StageDefinition = {
  name: '$replaceRoot',
  constraints: { ...TRANSFORM, allowedIn: { ...TRANSFORM.allowedIn, update: true } },
  parse(spec, ctx) {
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
    return replaceRootStage(newRoot, "'newRoot' expression ", ctx.expressions);
  },
};
