/** `$avg` and `$sum` as expressions: the classic engine's rules where they differ from `$group`'s. */
import { describe } from 'vitest';
import { Decimal128, Double, Long } from '../../../../src/bson/library.js';
import { valueRowsWithDoc } from '../helpers.js';

describe('$avg and $sum expressions', () => {
  valueRowsWithDoc([
    ['$avg sums Int64s as Doubles: MAX and MIN give 0', { $avg: [Long.fromString('9223372036854775807'), Long.fromString('-9223372036854775808')] }, {}, new Double(0)],
    ['$sum overflow to Infinity', { $sum: [Number.MAX_VALUE, Number.MAX_VALUE] }, {}, new Double(Infinity)],
    ['$avg of a Double and a Decimal128: the exact Double', { $avg: [0.1, Decimal128.fromString('0.2')] }, {}, Decimal128.fromString('0.1500000000000000027755575615628914')],
    ['$sum of Decimal128 -0 and -0 is 0', { $sum: [Decimal128.fromString('-0'), Decimal128.fromString('-0')] }, {}, Decimal128.fromString('0')],
  ]);
});
