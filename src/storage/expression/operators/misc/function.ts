/**
 * `$function` (ExpressionFunction, expression_function.cpp): its arguments are checked as mongod
 * checks them when it parses (31260, 31261, 31432, 31262, 31263, 31418, 31419); running it needs
 * a JavaScript engine, which Mayfly does not have, so evaluating it is mongod's answer without
 * one (31264), as `$where` is.
 */
import { Code } from '../../../../bson/library.js';
import { CommandError } from '../../../../errors/command_error.js';
import { bsonTypeOf } from '../../../values/bson_type.js';
import { constantOperand, isConstant } from '../../../values/constant_operand.js';
import { isDocument } from '../../../values/paths.js';
import type { ExpressionOperator } from '../../types.js';

/** `{$function: {body, args, lang: 'js'}}`. */
export const functionOperator: ExpressionOperator = {
  name: '$function',
  parse(arg, scope) {
    if (!isDocument(arg)) throw new CommandError(31260, `$function requires an object as an argument, found: ${bsonTypeOf(arg)}`);
    if (!('body' in arg)) throw new CommandError(31261, 'The body function must be specified.');
    const body = constantOperand(arg.body);
    if (!isConstant(body)) throw new CommandError(31432, 'The body function must be a constant expression');
    if (typeof body !== 'string' && !(body instanceof Code)) throw new CommandError(31262, 'The body function must evaluate to type string or code');
    if (!('args' in arg)) throw new CommandError(31263, 'The args field must be specified.');
    scope.parse(arg.args);
    if (!('lang' in arg)) throw new CommandError(31418, 'The lang field must be specified.');
    if (arg.lang !== 'js') throw new CommandError(31419, "Currently the only supported language specifier is 'js'.");
    return () => {
      throw new CommandError(31264, 'Cannot run server-side javascript without the javascript engine enabled');
    };
  },
};
