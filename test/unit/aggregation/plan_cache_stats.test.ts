import { describe, expect, it } from 'vitest';
import { expectCommandError } from './helpers.js';
import { runSystem } from './system_stage_helpers.js';

describe('$planCacheStats', () => {
  it('answers an empty cache with no document', () => {
    expect(runSystem([{ $planCacheStats: {} }])).toEqual([]);
    expect(runSystem([{ $planCacheStats: { allHosts: false } }])).toEqual([]);
  });
  it('takes an object (FailedToParse otherwise)', () => {
    expectCommandError(() => runSystem([{ $planCacheStats: 1 }]), 9, '$planCacheStats value must be an object. Found: int');
  });
  it('knows only allHosts, a boolean', () => {
    expectCommandError(() => runSystem([{ $planCacheStats: { x: 1 } }]), 9, 'unrecognized option to $planCacheStats: x');
    expectCommandError(() => runSystem([{ $planCacheStats: { allHosts: 1 } }]), 9, "$planCacheStats 'allHosts' must be a boolean. Found: int");
  });
});
