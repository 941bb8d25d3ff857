/** `$bsonSize`, `$binarySize` and `$toHashedIndexKey` (the hashed index's Int64 of a value). */
import { describe } from 'vitest';
import { Binary, Double, Long } from '../../../../src/bson/library.js';
import { errorRows, parseErrorRows, valueRows } from '../helpers.js';

const DOC = { d: { name: 'test' }, bin: new Binary(Buffer.from('hello')), s: 'héllo', i: 1, n: null };

describe('$bsonSize', () => {
  valueRows(
    [
      ['a document', { $bsonSize: '$d' }, 20],
      ['the empty document', { $bsonSize: {} }, 5],
      ['null', { $bsonSize: '$n' }, null],
      ['missing', { $bsonSize: '$nope' }, null],
    ],
    DOC,
  );
  errorRows([['an array', { $bsonSize: [[1]] }, 31393, '$bsonSize requires a document input, found: array']], DOC);
  parseErrorRows([['two arguments', { $bsonSize: [{}, {}] }, 16020, 'Expression $bsonSize takes exactly 1 arguments. 2 were passed in.']]);
});

describe('$binarySize', () => {
  valueRows(
    [
      ['BinData', { $binarySize: '$bin' }, 5],
      ['a string counts UTF-8 bytes', { $binarySize: '$s' }, 6],
      ['the empty string', { $binarySize: '' }, 0],
      ['missing', { $binarySize: '$nope' }, null],
    ],
    DOC,
  );
  errorRows([['an int', { $binarySize: '$i' }, 51276, '$binarySize requires a string or BinData argument, found: int']], DOC);
});

describe('$toHashedIndexKey', () => {
  valueRows(
    [
      // The value the MongoDB manual shows for this string.
      ['a string', { $toHashedIndexKey: 'string to hash' }, Long.fromString('763543691661428748')],
      ['1', { $toHashedIndexKey: 1 }, Long.fromString('5902408780260971510')],
      ['numbers squash to Int64: 1.0 as 1', { $toHashedIndexKey: new Double(1) }, Long.fromString('5902408780260971510')],
      ['a double truncates: 1.9 as 1', { $toHashedIndexKey: 1.9 }, Long.fromString('5902408780260971510')],
      ['a Long 1 as 1', { $toHashedIndexKey: Long.fromNumber(1) }, Long.fromString('5902408780260971510')],
      ['null', { $toHashedIndexKey: null }, Long.fromString('2338878944348059895')],
      ['missing hashes as null', { $toHashedIndexKey: '$nope' }, Long.fromString('2338878944348059895')],
    ],
    DOC,
  );
});
