/**
 * `$getField` (ExpressionGetField): the field of `input` (default `$$CURRENT`) named `field`,
 * taken literally (dots and a leading `$` included): the way to read names field paths cannot
 * express. `field` may be any expression, checked per document to be a string (3041704); the
 * short form `{$getField: <field>}` reads `$$CURRENT`, and so does a document argument whose
 * first field starts with `$` (`{$getField: {$literal: "$a"}}`).
 */
import { CommandError } from '../../../../errors/command_error.js';
import { MISSING } from '../../../values/missing.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { fieldOf, isNullish, typeName } from '../../value.js';
import { isDocument } from '../../../values/paths.js';

/** `{$getField: "name" | <expression> | {field, input}}`. */
export const getField: ExpressionOperator = {
  name: '$getField',
  parse(arg, scope) {
    let field: Evaluator | undefined;
    let input: Evaluator | undefined;
    if (isDocument(arg)) {
      for (const key of Object.keys(arg)) {
        if (field === undefined && input === undefined && key.charCodeAt(0) === 36 /* $ */) {
          field = scope.parse(arg);
          input = scope.current();
          break;
        }
        if (key === 'field') field = scope.parse(arg[key]);
        else if (key === 'input') input = scope.parse(arg[key]);
        else throw new CommandError(3041701, `$getField found an unknown argument: ${key}`);
      }
    } else {
      field = scope.parse(arg);
      input = scope.current();
    }
    if (field === undefined) throw new CommandError(3041702, "$getField requires 'field' to be specified");
    if (input === undefined) throw new CommandError(3041703, "$getField requires 'input' to be specified");
    const fieldE = field;
    const inputE = input;
    return (frame) => {
      const name = fieldE(frame);
      if (typeof name !== 'string') {
        throw new CommandError(3041704, `$getField requires 'field' to evaluate to type String, but got ${typeName(name)}`);
      }
      const from = inputE(frame);
      if (from === MISSING) return MISSING;
      if (isNullish(from)) return null;
      if (!isDocument(from)) return MISSING;
      return fieldOf(from, name);
    };
  },
};
