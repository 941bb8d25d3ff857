/**
 * mongod 8.2's `$group` hands a MinKey/MaxKey result of `$first`, `$last`, `$min`, `$max` and
 * the elements of `$addToSet` to a following stage as `{"": MinKey}`, and returns it as it is
 * when it ends the pipeline (the recorded cases: core/operator/accumulators/*, each followed by
 * a `$project`, and core/operator/stages/group/test_group_accumulator_types.py, `$group` last);
 * `$push` and values inside documents keep them.
 */
import { describe, it } from 'vitest';
import { MaxKey, MinKey, type Document } from '../../../src/bson/library.js';
import { expectExact } from '../aggregation/helpers.js';
import { groupTable, run } from './helpers.js';

describe('MinKey and MaxKey results of a $group that another stage follows', () => {
  const rows: Array<[string, Document, Document[], unknown]> = [
    ['$first of a MinKey constant', { $first: new MinKey() }, [{ v: 1 }], { '': new MinKey() }],
    ['$last of a MaxKey field', { $last: '$v' }, [{ v: 1 }, { v: new MaxKey() }], { '': new MaxKey() }],
    ['$min of a MinKey', { $min: '$v' }, [{ v: 1 }, { v: new MinKey() }], { '': new MinKey() }],
    ['$max of a MaxKey constant', { $max: new MaxKey() }, [{}], { '': new MaxKey() }],
    ['$addToSet wraps the element', { $addToSet: '$v' }, [{ v: new MinKey() }, { v: new MinKey() }, { v: 1 }], [{ '': new MinKey() }, 1]],
    ['$push keeps it', { $push: '$v' }, [{ v: new MinKey() }], [new MinKey()]],
    ['$max of other values is unchanged', { $max: '$v' }, [{ v: 1 }, { v: 2 }], 2],
  ];
  for (const [name, accumulator, docs, expected] of rows) {
    it(name, () => expectExact(run([{ $group: { _id: null, r: accumulator } }, { $project: { _id: 0, r: 1 } }], docs), [{ r: expected }]));
  }
});

describe('MinKey and MaxKey results of a $group that ends the pipeline', () => {
  groupTable([
    ['$min of a MinKey', { $min: '$v' }, [{ v: new MinKey() }, { v: 42 }], new MinKey()],
    ['$max of a MaxKey', { $max: '$v' }, [{ v: 'x' }, { v: new MaxKey() }], new MaxKey()],
    ['$first of a MinKey constant', { $first: new MinKey() }, [{ v: 1 }], new MinKey()],
    ['$addToSet keeps the element', { $addToSet: '$v' }, [{ v: new MinKey() }], [new MinKey()]],
  ]);
});
