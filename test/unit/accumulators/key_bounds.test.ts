/**
 * mongod 8.2's `$group` renders a MinKey/MaxKey result of `$first`, `$last`, `$min`, `$max`
 * and the elements of `$addToSet` as `{"": MinKey}` (the recorded cases); `$push` and values
 * inside documents keep them.
 */
import { describe } from 'vitest';
import { MaxKey, MinKey } from '../../../src/bson/library.js';
import { groupTable } from './helpers.js';

describe('MinKey and MaxKey results of $group', () => {
  groupTable([
    ['$first of a MinKey constant', { $first: new MinKey() }, [{ v: 1 }], { '': new MinKey() }],
    ['$last of a MaxKey field', { $last: '$v' }, [{ v: 1 }, { v: new MaxKey() }], { '': new MaxKey() }],
    ['$min of a MinKey', { $min: '$v' }, [{ v: 1 }, { v: new MinKey() }], { '': new MinKey() }],
    ['$max of a MaxKey constant', { $max: new MaxKey() }, [{}], { '': new MaxKey() }],
    ['$addToSet wraps the element', { $addToSet: '$v' }, [{ v: new MinKey() }, { v: new MinKey() }, { v: 1 }], [{ '': new MinKey() }, 1]],
    ['$push keeps it', { $push: '$v' }, [{ v: new MinKey() }], [new MinKey()]],
    ['$max of other values is unchanged', { $max: '$v' }, [{ v: 1 }, { v: 2 }], 2],
  ]);
});
