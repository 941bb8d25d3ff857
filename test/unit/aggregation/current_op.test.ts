import { describe, expect, it } from 'vitest';
import type { CurrentOpOptions } from '../../../src/storage/aggregation/runtime.js';
import { expectCommandError } from './helpers.js';
import { runSystem } from './system_stage_helpers.js';

const admin = { db: 'admin', collection: null };

describe('$currentOp', () => {
  it('hands the server its options, defaults filled in', () => {
    const seen: CurrentOpOptions[] = [];
    const server = { currentOps: (o: CurrentOpOptions) => (seen.push(o), [{ type: 'op' }]) };
    expect(runSystem([{ $currentOp: {} }], { ...admin, server })).toEqual([{ type: 'op' }]);
    runSystem([{ $currentOp: { idleCursors: true, truncateOps: true, targetAllNodes: false } }], { ...admin, server });
    expect(seen).toEqual([
      { allUsers: false, idleConnections: false, idleCursors: false, idleSessions: true, localOps: false, truncateOps: false },
      { allUsers: false, idleConnections: false, idleCursors: true, idleSessions: true, localOps: false, truncateOps: true },
    ]);
  });
  const errors: Array<[string, unknown, number, string]> = [
    ['a non-object', [], 14, '$currentOp options must be specified in an object, but found: array'],
    ['null', null, 14, '$currentOp options must be specified in an object, but found: null'],
    ['a number for a boolean', { allUsers: 1 }, 14, "The 'allUsers' parameter of the $currentOp stage must be a boolean value, but found: int"],
    ['null for a boolean', { idleCursors: null }, 14, "The 'idleCursors' parameter of the $currentOp stage must be a boolean value, but found: null"],
    ['an unknown field', { AllUsers: true }, 40415, "BSON field '$currentOp.AllUsers' is an unknown field."],
    ['targetAllNodes', { targetAllNodes: true }, 9, '$currentOp supports targetAllNodes parameter only for sharded clusters'],
    ['localOps with targetAllNodes', { localOps: true, targetAllNodes: true }, 9, 'The localOps and targetAllNodes options of the $currentOp stage are mutually incompatible'],
  ];
  for (const [name, spec, code, message] of errors) {
    it(`refuses ${name}`, () => expectCommandError(() => runSystem([{ $currentOp: spec }], admin), code, message));
  }
  it('runs only on admin with {aggregate: 1} (73)', () => {
    expectCommandError(() => runSystem([{ $currentOp: {} }], { db: 'test', collection: null }), 73, "$currentOp must be run against the 'admin' database with {aggregate: 1}");
  });
});
