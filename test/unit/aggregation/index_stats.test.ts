import { describe, expect, it } from 'vitest';
import { Long } from '../../../src/bson/library.js';
import { expectCommandError } from './helpers.js';
import { runSystem } from './system_stage_helpers.js';

const STATS = (name: string) => [{ name: '_id_', key: { _id: 1 }, host: 'h:1', accesses: { ops: Long.fromNumber(name === 'base' ? 3 : 0), since: new Date(0) }, spec: { v: 2, key: { _id: 1 }, name: '_id_' } }];

describe('$indexStats', () => {
  it('lists what the server reports of the aggregated collection', () => {
    expect(runSystem([{ $indexStats: {} }], { server: { indexStats: STATS } })).toEqual(STATS('c'));
  });
  it('reads the collection a view with no pipeline ends at', () => {
    expect(runSystem([{ $indexStats: {} }], { collection: 'v', views: { v: [] }, server: { indexStats: STATS } })).toEqual(STATS('base'));
  });
  it('must stay first once a view with a pipeline is resolved (40602)', () => {
    expectCommandError(() => runSystem([{ $indexStats: {} }], { collection: 'v', views: { v: [{ $match: {} }] } }), 40602, '$indexStats is only valid as the first stage in a pipeline');
  });
  const bad: Array<[string, unknown]> = [
    ['a non-empty object', { a: 1 }],
    ['null', null],
    ['a number', 1],
    ['an array', []],
  ];
  for (const [name, spec] of bad) {
    it(`refuses ${name} (28803)`, () => expectCommandError(() => runSystem([{ $indexStats: spec }]), 28803, 'The $indexStats stage specification must be an empty object'));
  }
});
