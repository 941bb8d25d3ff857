/** `$sum` and `$avg` in `$group`: the type rules, overflow and Decimal128 totals (the recorded mongod 8.2 cases). */
import { describe } from 'vitest';
import { Decimal128, Double, Long } from '../../../src/bson/library.js';
import { groupTable } from './helpers.js';

const MAX = Number.MAX_VALUE;
const DEC_MAX = Decimal128.fromString('9.999999999999999999999999999999999E+6144');
const DEC_MIN = Decimal128.fromString('-9.999999999999999999999999999999999E+6144');
const INT64_MAX = Long.fromString('9223372036854775807');
const INT64_MIN = Long.fromString('-9223372036854775808');

describe('$sum', () => {
  groupTable([
    ['a Double overflow is Infinity', { $sum: '$v' }, [{ v: MAX }, { v: MAX }], new Double(Infinity)],
    ['a negative overflow is -Infinity', { $sum: '$v' }, [{ v: -MAX }, { v: -MAX }], new Double(-Infinity)],
    ['an overflowed Double does not come back', { $sum: '$v' }, [{ v: MAX }, { v: MAX }, { v: -MAX }], new Double(Infinity)],
    ['a Decimal128 overflow is Infinity and stays', { $sum: '$v' }, [{ v: DEC_MAX }, { v: DEC_MAX }, { v: DEC_MIN }], Decimal128.fromString('Infinity')],
    ['Double + Decimal128: the exact Double (2.5), no padding', { $sum: '$v' }, [{ v: 2.5 }, { v: Decimal128.fromString('3.5') }], Decimal128.fromString('6.0')],
    ['Int64 past its range with a Decimal128: exact', { $sum: '$v' }, [{ v: INT64_MAX }, { v: Long.fromNumber(1) }, { v: Decimal128.fromString('0') }], Decimal128.fromString('9223372036854775808')],
    ['Decimal128 -0 sums to 0', { $sum: '$v' }, [{ v: Decimal128.fromString('-0') }], Decimal128.fromString('0')],
    ['Decimal128 MAX and -MAX cancel to 0', { $sum: '$v' }, [{ v: DEC_MAX }, { v: DEC_MIN }], Decimal128.fromString('0')],
    ['a zero of smaller exponent keeps it', { $sum: '$v' }, [{ v: Decimal128.fromString('1E-10') }, { v: Decimal128.fromString('-1E-10') }], Decimal128.fromString('0E-10')],
    ['a Decimal128 -NaN keeps its sign', { $sum: '$v' }, [{ v: 1 }, { v: Decimal128.fromString('-NaN') }, { v: Decimal128.fromString('NaN') }], Decimal128.fromString('-NaN')],
  ]);
});

describe('$avg', () => {
  groupTable([
    ['Int64 MAX and MIN: exact, -0.5', { $avg: '$v' }, [{ v: INT64_MAX }, { v: INT64_MIN }], new Double(-0.5)],
    ['a Double overflow is Infinity', { $avg: '$v' }, [{ v: MAX }, { v: MAX }], new Double(Infinity)],
    ['Decimal128 MAX and MIN: 0', { $avg: '$v' }, [{ v: DEC_MAX }, { v: DEC_MIN }], Decimal128.fromString('0')],
    ['Decimal128 -0: 0', { $avg: '$v' }, [{ v: Decimal128.fromString('-0') }], Decimal128.fromString('0')],
    ['a Double with a Decimal128: the Double exactly (34 digits)', { $avg: '$v' }, [{ v: 1.57 }, { v: Decimal128.fromString('1.57') }], Decimal128.fromString('1.570000000000000031086244689504383')],
  ]);
});
