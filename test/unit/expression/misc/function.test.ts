/**
 * `$function` without a JavaScript engine: mongod's parse-time checks of its arguments
 * (expression_function.cpp), then 31264 when it is evaluated, as mongod answers with scripting
 * disabled.
 */
import { describe } from 'vitest';
import { Code } from '../../../../src/bson/library.js';
import { errorRows, parseErrorRows } from '../helpers.js';

const NO_ENGINE = 'Cannot run server-side javascript without the javascript engine enabled';

describe('$function', () => {
  errorRows([
    ['a string body', { $function: { body: 'function(x) { return x * 2; }', args: [5], lang: 'js' } }, 31264, NO_ENGINE],
    ['a Code body', { $function: { body: new Code('function() { return 1; }'), args: [], lang: 'js' } }, 31264, NO_ENGINE],
  ]);
  parseErrorRows([
    ['not an object', { $function: 'f' }, 31260, '$function requires an object as an argument, found: string'],
    ['no body', { $function: { args: [], lang: 'js' } }, 31261, 'The body function must be specified.'],
    ['a body read from a field', { $function: { body: '$f', args: [], lang: 'js' } }, 31432, 'The body function must be a constant expression'],
    ['a body of another type', { $function: { body: 1, args: [], lang: 'js' } }, 31262, 'The body function must evaluate to type string or code'],
    ['no args', { $function: { body: 'function() {}', lang: 'js' } }, 31263, 'The args field must be specified.'],
    ['no lang', { $function: { body: 'function() {}', args: [] } }, 31418, 'The lang field must be specified.'],
    ['another lang', { $function: { body: 'function() {}', args: [], lang: 'python' } }, 31419, "Currently the only supported language specifier is 'js'."],
  ]);
});
