/** `$objectToArray` and `$arrayToObject` (ExpressionObjectToArray / ExpressionArrayToObject). */
import { describe } from 'vitest';
import { Double } from '../../../../src/bson/library.js';
import { errorRows, valueRows } from '../helpers.js';

const DOC = { o: { a: 1, b: { c: 'x' } }, n: null, s: 's', i: 3 };

describe('$objectToArray', () => {
  valueRows(
    [
      ['fields in order as {k, v}', { $objectToArray: '$o' }, [{ k: 'a', v: 1 }, { k: 'b', v: { c: 'x' } }]],
      ['an empty document', { $objectToArray: { $literal: {} } }, []],
      ['null', { $objectToArray: '$n' }, null],
      ['missing', { $objectToArray: '$nope' }, null],
    ],
    DOC,
  );
  errorRows(
    [
      ['a string', { $objectToArray: '$s' }, 40390, '$objectToArray requires a document input, found: string'],
      ['an array', { $objectToArray: [[1]] }, 40390, '$objectToArray requires a document input, found: array'],
    ],
    DOC,
  );
});

describe('$arrayToObject', () => {
  valueRows(
    [
      ['[k, v] pairs', { $arrayToObject: { $literal: [['a', 1], ['b', new Double(2)]] } }, { a: 1, b: new Double(2) }],
      ['{k, v} documents', { $arrayToObject: { $literal: [{ k: 'a', v: 1 }, { v: 2, k: 'b' }] } }, { a: 1, b: 2 }],
      ['a repeated key keeps its place and the last value', { $arrayToObject: { $literal: [['a', 1], ['b', 2], ['a', 3]] } }, { a: 3, b: 2 }],
      ['an empty array', { $arrayToObject: { $literal: [] } }, {}],
      ['keys with $ and dots are kept', { $arrayToObject: { $literal: [['$x', 1], ['a.b', 2]] } }, { $x: 1, 'a.b': 2 }],
      ['round trip with $objectToArray', { $arrayToObject: { $objectToArray: '$o' } }, { a: 1, b: { c: 'x' } }],
      ['null', { $arrayToObject: '$n' }, null],
      ['missing', { $arrayToObject: '$nope' }, null],
    ],
    DOC,
  );
  errorRows(
    [
      ['a string', { $arrayToObject: '$s' }, 40386, '$arrayToObject requires an array input, found: string'],
      ['a first element neither array nor document', { $arrayToObject: { $literal: [1, 2] } }, 40398, 'Unrecognised input type format for $arrayToObject: int'],
      [
        'a document after pairs',
        { $arrayToObject: { $literal: [['a', 1], { k: 'b', v: 2 }] } },
        40396,
        '$arrayToObject requires a consistent input format. Elements mustall be arrays or all be objects. Array was detected, now found: object',
      ],
      ['a pair of three', { $arrayToObject: { $literal: [['a', 1, 2]] } }, 40397, '$arrayToObject requires an array of size 2 arrays,found array of size: 3'],
      [
        'a pair with a number key',
        { $arrayToObject: { $literal: [[1, 2]] } },
        40395,
        '$arrayToObject requires an array of key-value pairs, where the key must be of type string. Found key type: int',
      ],
      ['a pair key with a NUL', { $arrayToObject: { $literal: [['a\0b', 1]] } }, 4940400, 'Key field cannot contain an embedded null byte'],
      [
        'an array after documents',
        { $arrayToObject: { $literal: [{ k: 'a', v: 1 }, ['b', 2]] } },
        40391,
        '$arrayToObject requires a consistent input format. Elements mustall be arrays or all be objects. Object was detected, now found: array',
      ],
      ['a document of three fields', { $arrayToObject: { $literal: [{ k: 'a', v: 1, x: 2 }] } }, 40392, "$arrayToObject requires an object keys of 'k' and 'v'. Found incorrect number of keys:3"],
      [
        'a document without v',
        { $arrayToObject: { $literal: [{ k: 'a', x: 1 }] } },
        40393,
        "$arrayToObject requires an object with keys 'k' and 'v'. Missing either or both keys from: {k: \"a\", x: 1}",
      ],
      [
        'a document with a number k',
        { $arrayToObject: { $literal: [{ k: 1, v: 1 }] } },
        40394,
        "$arrayToObject requires an object with keys 'k' and 'v', where the value of 'k' must be of type string. Found type: int",
      ],
      ['a k with a NUL', { $arrayToObject: { $literal: [{ k: '\0', v: 1 }] } }, 4940401, 'Key field cannot contain an embedded null byte'],
      ['two arguments', { $arrayToObject: [[], []] }, 16020, 'Expression $arrayToObject takes exactly 1 arguments. 2 were passed in.'],
    ],
    DOC,
  );
});
