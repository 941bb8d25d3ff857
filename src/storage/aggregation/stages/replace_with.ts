/** `$replaceWith` (document_source_replace_root.cpp): `$replaceRoot` with the expression as its whole argument. */
import { TRANSFORM, type StageDefinition } from '../stage.js';
import { replaceRootStage } from './_internal.js';

/** `{$replaceWith: <expression>}`. */
export const replaceWith: StageDefinition = {
  name: '$replaceWith',
  constraints: { ...TRANSFORM, allowedIn: { ...TRANSFORM.allowedIn, update: true } },
  parse: (spec, ctx) => replaceRootStage(ctx.expressions.parse(spec), "'replacement document'", ctx.expressions),
};
