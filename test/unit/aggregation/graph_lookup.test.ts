/** `$graphLookup`: the breadth-first search, depths, cycles, `maxDepth`, `restrictSearchWithMatch`, errors. */
import { describe, it } from 'vitest';
import { Long, type Document } from '../../../src/bson/library.js';
import { expectCommandError, expectExact } from './helpers.js';
import { parseWith, runWith, type Foreign } from './foreign_runtime.js';

const F: Foreign = {
  collections: {
    emp: [
      { _id: 1, name: 'dev', boss: 'eliot' },
      { _id: 2, name: 'eliot', boss: 'ron' },
      { _id: 3, name: 'ron', boss: 'andrew' },
      { _id: 4, name: 'andrew', boss: null },
      { _id: 5, name: 'asya', boss: 'ron' },
    ],
    ring: [
      { _id: 'a', next: 'b' },
      { _id: 'b', next: ['c', 'a'] },
      { _id: 'c', next: 'a' },
    ],
  },
};

const chain = (extra: Document = {}): Document => ({
  $graphLookup: { from: 'emp', startWith: '$boss', connectFromField: 'boss', connectToField: 'name', as: 'chain', ...extra },
});
const names: Document = { $project: { _id: 0, chain: '$chain.name' } };

describe('$graphLookup', () => {
  const cases: Array<[string, Document[], Document[], Document[]]> = [
    ['follows the chain to its end', [chain(), names], [{ boss: 'eliot' }], [{ chain: ['eliot', 'ron', 'andrew'] }]],
    ['maxDepth 0 is the first round only', [chain({ maxDepth: 0 }), names], [{ boss: 'eliot' }], [{ chain: ['eliot'] }]],
    ['maxDepth 1', [chain({ maxDepth: 1 }), names], [{ boss: 'eliot' }], [{ chain: ['eliot', 'ron'] }]],
    [
      'depthField is an Int64',
      [chain({ depthField: 'd' }), { $project: { _id: 0, d: '$chain.d' } }],
      [{ boss: 'eliot' }],
      [{ d: [Long.fromNumber(0), Long.fromNumber(1), Long.fromNumber(2)] }],
    ],
    ['restrictSearchWithMatch filters each round', [chain({ restrictSearchWithMatch: { name: { $ne: 'andrew' } } }), names], [{ boss: 'eliot' }], [{ chain: ['eliot', 'ron'] }]],
    ['a startWith array starts from each element', [chain(), names], [{ boss: ['andrew', 'dev'] }], [{ chain: ['dev', 'andrew', 'eliot', 'ron'] }]],
    ['a missing startWith finds nothing', [chain({ startWith: '$none' })], [{ _id: 9 }], [{ _id: 9, chain: [] }]],
    ['nothing found is an empty array', [chain()], [{ _id: 9, boss: 'nobody' }], [{ _id: 9, boss: 'nobody', chain: [] }]],
    [
      'a cycle reports each document once',
      [{ $graphLookup: { from: 'ring', startWith: '$s', connectFromField: 'next', connectToField: '_id', as: 'r' } }, { $project: { _id: 0, r: '$r._id' } }],
      [{ s: 'a' }],
      [{ r: ['a', 'b', 'c'] }],
    ],
    ['a collection that does not exist finds nothing', [{ $graphLookup: { from: 'none', startWith: 1, connectFromField: 'a', connectToField: 'b', as: 'x' } }], [{ _id: 1 }], [{ _id: 1, x: [] }]],
  ];
  for (const [name, pipeline, input, expected] of cases) it(name, () => expectExact(runWith(F, pipeline, input), expected));
});

describe('$graphLookup errors', () => {
  const base = { from: 'emp', startWith: '$boss', connectFromField: 'boss', connectToField: 'name', as: 'chain' };
  const cases: Array<[string, unknown, number, string]> = [
    ['a number', 4, 9, 'the $graphLookup stage specification must be an object, but found int'],
    ['no from', { as: 'x', maxDepth: 1.5 }, 9, "missing 'from' option to $graphLookup stage specification: { as: \"x\", maxDepth: 1.5 }"],
    ['from of a number', { ...base, from: -1 }, 9, "$graphLookup 'from' field must be a string, but found int"],
    ['an empty from', { ...base, from: '' }, 73, 'invalid $graphLookup namespace: test.'],
    ['maxDepth of a string', { ...base, maxDepth: 'x' }, 40100, 'maxDepth must be numeric, found type: string'],
    ['a negative maxDepth', { ...base, maxDepth: -1 }, 40101, 'maxDepth requires a nonnegative argument, found: -1'],
    ['a fractional maxDepth', { ...base, maxDepth: 2.3 }, 40102, 'maxDepth could not be represented as a long long: 2'],
    ['as of a number', { ...base, as: 0 }, 40103, 'expected string as argument for as, found: int'],
    ['a $-prefixed connectFromField', { ...base, connectFromField: '$b' }, 16410, "FieldPath field names may not start with '$'. Consider using $getField or $setField."],
    ['restrictSearchWithMatch of a string', { ...base, restrictSearchWithMatch: 'x' }, 40185, 'restrictSearchWithMatch must be an object, found string'],
    ['an unknown argument', { ...base, notAField: 1 }, 40104, 'Unknown argument to $graphLookup: notAField'],
    ['no connectToField', { ...base, connectToField: undefined }, 40105, "$graphLookup requires 'from', 'as', 'startWith', 'connectFromField', and 'connectToField' to be specified."],
  ];
  for (const [name, spec, code, message] of cases) {
    const doc = Object.fromEntries(Object.entries(spec as Document).filter(([, v]) => v !== undefined));
    it(name, () => expectCommandError(() => parseWith(F, [{ $graphLookup: typeof spec === 'number' ? spec : doc }]), code, message));
  }
});
