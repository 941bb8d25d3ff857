import { describe, expect, it } from 'vitest';
import { expectCommandError } from './helpers.js';
import { runSystem } from './system_stage_helpers.js';

describe('$planCacheStats', () => {
  const exists = { server: { documentCount: () => 0 } };
  it('answers an empty cache with no document', () => {
    expect(runSystem([{ $planCacheStats: {} }], exists)).toEqual([]);
    expect(runSystem([{ $planCacheStats: { allHosts: false } }], exists)).toEqual([]);
  });
  it('refuses a collection that does not exist (50933)', () => {
    expectCommandError(() => runSystem([{ $planCacheStats: {} }]), 50933, "collection 'test.c' does not exist");
  });
  it('takes an object (FailedToParse otherwise)', () => {
    expectCommandError(() => runSystem([{ $planCacheStats: 1 }]), 9, '$planCacheStats value must be an object. Found: int');
  });
  it('knows only allHosts, a boolean', () => {
    expectCommandError(() => runSystem([{ $planCacheStats: { x: 1 } }]), 9, 'unrecognized option to $planCacheStats: x');
    expectCommandError(() => runSystem([{ $planCacheStats: { allHosts: 1 } }]), 13111, 'wrong type for field (allHosts) int != bool');
    expectCommandError(() => runSystem([{ $planCacheStats: { allHosts: null } }]), 13111, 'wrong type for field (allHosts) null != bool');
    expectCommandError(() => runSystem([{ $planCacheStats: { allHosts: true } }]), 4503200, "$planCacheStats stage does not support 'allHosts: true' outside of a sharded cluster");
  });
});
