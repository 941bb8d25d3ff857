/** `$push` and `$addToSet` may not build an array past 100 MB (146 ExceededMemoryLimit). */
import { describe } from 'vitest';
import { groupErrorTable } from './helpers.js';

// 10 strings of 10 MB, each 10,485,765 BSON bytes (4 + 10,485,760 + 1): the tenth passes 100 MB.
const TEN_MB = 'x'.repeat(10 * 1024 * 1024);
const DOCS = Array.from({ length: 10 }, (_, i) => ({ v: i === 9 ? TEN_MB : TEN_MB.slice(0, -1) + String(i) }));

describe('memory limits', () => {
  groupErrorTable([
    [
      '$push',
      { $push: '$v' },
      DOCS,
      146,
      'Used too much memory for a single array. Memory limit: 104857600 bytes. The array contains 9 elements and is of size 94371885 bytes. The element being added has size 10485765 bytes.',
    ],
    [
      '$addToSet',
      { $addToSet: '$v' },
      DOCS,
      146,
      'Used too much memory for a single set. Memory limit: 104857600 bytes. The set contains 9 elements and is of size 94371885 bytes. The element being added has size 10485765 bytes.',
    ],
  ]);
});
