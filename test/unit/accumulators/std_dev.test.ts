/** `$stdDevPop` and `$stdDevSamp` in `$group` (accumulator_std_dev.cpp): Doubles, non-numbers ignored. */
import { describe } from 'vitest';
import { Decimal128, Double, Long } from '../../../src/bson/library.js';
import { groupTable } from './helpers.js';

const TEN_TWENTY_THIRTY = [{ v: 10 }, { v: 20 }, { v: 30 }];

describe('$stdDevPop and $stdDevSamp', () => {
  groupTable([
    ['$stdDevPop of 10, 20, 30', { $stdDevPop: '$v' }, TEN_TWENTY_THIRTY, 8.16496580927726],
    ['$stdDevSamp of 10, 20, 30 is a Double', { $stdDevSamp: '$v' }, TEN_TWENTY_THIRTY, new Double(10)],
    ['$stdDevPop of one value is 0', { $stdDevPop: '$v' }, [{ v: 4 }], new Double(0)],
    ['$stdDevSamp of one value is null', { $stdDevSamp: '$v' }, [{ v: 4 }], null],
    ['non-numbers and missing are ignored', { $stdDevSamp: '$v' }, [{ v: 'x' }, { v: 10 }, {}, { v: null }, { v: 30 }, { v: 20 }], new Double(10)],
    ['no numbers: null', { $stdDevPop: '$v' }, [{ v: 'x' }], null],
    ['Int64 and Decimal128 count as numbers, the result a Double', { $stdDevPop: '$v' }, [{ v: Long.fromNumber(1) }, { v: Decimal128.fromString('3') }], new Double(1)],
  ]);
});
