import { describe, it } from 'vitest';
import type { Document } from '../../../src/bson/library.js';
import { expectCommandError, expectExact } from './helpers.js';
import { runPipeline } from './stage_helpers.js';

const LEVELS: Document[] = [
  {
    _id: 1,
    level: 1,
    a: { level: 2, b: 1 },
    c: { level: 1, d: { level: 3 } },
    list: [{ level: 1, x: 1 }, { level: 3, x: 2 }, 5, [{ level: 3 }, { level: 1, y: 1 }]],
  },
  { _id: 2, level: 3 },
];

/** Keep levels up to 1, descend into them, prune the others (a missing level descends). */
const BY_LEVEL = { $cond: [{ $gt: [{ $ifNull: ['$level', 0] }, 1] }, '$$PRUNE', '$$DESCEND'] };

describe('$redact', () => {
  const cases: Array<[string, unknown, Document[], Document[]]> = [
    ['$$KEEP keeps everything', '$$KEEP', LEVELS, LEVELS],
    ['$$PRUNE at the top drops the document', '$$PRUNE', LEVELS, []],
    [
      '$$DESCEND through subdocuments and arrays (nested arrays too, scalars kept)',
      BY_LEVEL,
      LEVELS,
      [{ _id: 1, level: 1, c: { level: 1 }, list: [{ level: 1, x: 1 }, 5, [{ level: 1, y: 1 }]] }],
    ],
    [
      '$$KEEP below stops the descent',
      { $cond: [{ $eq: ['$level', 2] }, '$$KEEP', { $cond: [{ $eq: ['$level', 1] }, '$$DESCEND', '$$PRUNE'] }] },
      [{ _id: 1, level: 1, a: { level: 2, b: { level: 9 } }, z: { q: 1 } }],
      [{ _id: 1, level: 1, a: { level: 2, b: { level: 9 } } }],
    ],
    [
      '$$ROOT stays the whole document at every level',
      { $cond: [{ $eq: ['$$ROOT.keep', true] }, '$$DESCEND', '$$PRUNE'] },
      [{ _id: 1, keep: true, sub: { keep: false } }],
      [{ _id: 1, keep: true, sub: { keep: false } }],
    ],
    ['the strings the variables hold act as them', { $literal: 'descend' }, [{ _id: 1, a: { b: 1 } }], [{ _id: 1, a: { b: 1 } }]],
    ['a descended document may end up empty', { $cond: [{ $eq: ['$_id', 1] }, '$$DESCEND', '$$PRUNE'] }, [{ _id: 1, a: { b: 1 } }], [{ _id: 1 }]],
  ];
  for (const [name, expr, input, expected] of cases) {
    it(name, () => expectExact(runPipeline([{ $redact: expr }], input), expected));
  }

  it('any other result is 17053', () => {
    expectCommandError(
      () => runPipeline([{ $redact: '$level' }], [{ _id: 1, level: 5 }]),
      17053,
      "$redact's expression should not return anything aside from the variables $$KEEP, $$DESCEND, and $$PRUNE, but returned 5",
    );
  });

  it('a missing result is 17053 too', () => {
    expectCommandError(
      () => runPipeline([{ $redact: '$nope' }], [{ _id: 1 }]),
      17053,
      "$redact's expression should not return anything aside from the variables $$KEEP, $$DESCEND, and $$PRUNE, but returned MISSING",
    );
  });
});
