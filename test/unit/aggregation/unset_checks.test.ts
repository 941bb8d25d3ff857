/** `$unset`'s checks over all its fields, in mongod 8.2's order: null byte, depth, field path, collision. */
import { describe, expect, it } from 'vitest';
import { expectCommandError } from './helpers.js';
import { runPipeline } from './stage_helpers.js';

describe('$unset checks', () => {
  it('refuses an embedded null byte before any other error (9527900)', () => {
    expectCommandError(() => runPipeline([{ $unset: ['$a', 'a\0b'] }], []), 9527900, 'Field path cannot contain an embedded null byte');
  });
  it('refuses a path of more than 200 components (Overflow)', () => {
    expectCommandError(() => runPipeline([{ $unset: Array(201).fill('a').join('.') }], []), 15, 'FieldPath is too long. Maximum depth is 200');
  });
  it('checks the field paths before a field named twice (31250)', () => {
    expect(() => runPipeline([{ $unset: ['$a', 'b', 'b'] }], [])).toThrow(/may not start with '\$'/);
    expectCommandError(() => runPipeline([{ $unset: ['b', 'b'] }], []), 31250, 'Path collision at b');
  });
  it('removes a field named __proto__', () => {
    const doc = JSON.parse('{"_id": 1, "__proto__": 10, "a": 20}');
    expect(runPipeline([{ $unset: '__proto__' }], [doc])).toEqual([{ _id: 1, a: 20 }]);
  });
});
